/**
 * The asset's large preview: an interactive one when its type and files allow (previewPlan), on
 * the small selection that plan asks `/files` for; the thumbnail otherwise, and whenever the
 * interactive one fails, with a short note. `data-kind` and `data-state` (loading, loaded,
 * failed, none) say which and how far, for people's tools and the browser tests.
 */
import type { JSX } from "preact";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { AssetDetails, FileSelection } from "../../../core/schemas/index.ts";
import { getJson } from "../../lib/api.ts";
import { filesPath } from "../choices.ts";
import { AudioPreview } from "./audio.tsx";
import { FontPreview } from "./font.tsx";
import type { KindProps, PreviewState } from "./kind.ts";
import { ModelPreview } from "./model.tsx";
import { PanoramaPreview } from "./panorama.tsx";
import { type PreviewKind, previewPlan } from "./plan.ts";
import { TexturePreview } from "./texture.tsx";
import { Thumbnail } from "./thumbnail.tsx";

const KINDS: Record<PreviewKind, { view: (props: KindProps) => JSX.Element; failed: string }> = {
  model: { view: ModelPreview, failed: "The 3D view could not be loaded." },
  panorama: { view: PanoramaPreview, failed: "The panorama could not be loaded." },
  texture: { view: TexturePreview, failed: "The maps could not be loaded." },
  audio: { view: AudioPreview, failed: "The sound could not be loaded." },
  font: { view: FontPreview, failed: "The font could not be loaded." },
};

export function Preview({ asset }: { asset: AssetDetails }) {
  const plan = useMemo(() => previewPlan(asset), [asset]);
  const [selection, setSelection] = useState<FileSelection | undefined>(undefined);
  const [state, setState] = useState<{ state: PreviewState; message?: string | undefined }>({ state: "loading" });
  const onState = useCallback((next: PreviewState, message?: string) => setState({ state: next, message }), []);

  useEffect(() => {
    setSelection(undefined);
    setState({ state: "loading" });
    if (!plan) return;
    const abort = new AbortController();
    getJson<FileSelection>(filesPath(asset.id, plan.choices), abort.signal).then(setSelection, () => {
      if (!abort.signal.aborted) onState("failed");
    });
    return () => abort.abort();
  }, [asset.id, plan, onState]);

  if (!plan) {
    return (
      <figure class="preview" data-kind="thumbnail" data-state="none">
        <Thumbnail asset={asset} />
      </figure>
    );
  }
  const kind = KINDS[plan.kind];
  const View = kind.view;
  return (
    <figure class={`preview preview-${plan.kind}`} data-kind={plan.kind} data-state={state.state}>
      {state.state === "failed" ? (
        <Thumbnail asset={asset} />
      ) : selection ? (
        <View asset={asset} files={selection.files} choices={plan.choices} onState={onState} />
      ) : (
        <Thumbnail asset={asset} />
      )}
      {state.state === "failed" && (
        <figcaption class="preview-note">{`${state.message ?? kind.failed} The picture from the source is shown instead.`}</figcaption>
      )}
    </figure>
  );
}
