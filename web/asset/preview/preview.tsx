/**
 * The asset's large preview: an interactive one when its type and files allow (previewPlan), on
 * the small selection that plan asks `/files` for; the thumbnail otherwise, and whenever the
 * interactive one fails, with a short note. The 3D views (a model, a panorama) start when the
 * person asks, on a button that says what they cost: their code is a megabyte and their drawing
 * keeps a phone's processor busy, which nobody should pay for an asset they only glance at. The
 * others (maps, a sound, a font) are light and start at once. `data-kind` and `data-state` (idle,
 * loading, loaded, failed, none) say which and how far, for people's tools and the browser tests.
 */
import type { JSX } from "preact";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { AssetDetails, FileSelection } from "../../../core/schemas/index.ts";
import { getJson } from "../../lib/api.ts";
import { bytes } from "../../lib/format.ts";
import { filesPath } from "../choices.ts";
import { AudioPreview } from "./audio.tsx";
import { FontPreview } from "./font.tsx";
import type { KindProps, PreviewState } from "./kind.ts";
import { ModelPreview } from "./model.tsx";
import { PanoramaPreview } from "./panorama.tsx";
import { type PreviewKind, previewPlan } from "./plan.ts";
import { TexturePreview } from "./texture.tsx";
import { Thumbnail } from "./thumbnail.tsx";

/**
 * `start`: the label of the button a heavy view waits for, and `code` what it downloads of the
 * bundle (brotli: model-viewer with three.js, or three.js alone), said on the button with the files.
 */
const KINDS: Record<PreviewKind, { view: (props: KindProps) => JSX.Element; failed: string; start?: string; code?: number }> = {
  model: { view: ModelPreview, failed: "The 3D view could not be loaded.", start: "View in 3D", code: 250_000 },
  panorama: { view: PanoramaPreview, failed: "The panorama could not be loaded.", start: "Look around the panorama", code: 135_000 },
  texture: { view: TexturePreview, failed: "The maps could not be loaded." },
  audio: { view: AudioPreview, failed: "The sound could not be loaded." },
  font: { view: FontPreview, failed: "The font could not be loaded." },
};

export function Preview({ asset }: { asset: AssetDetails }) {
  const plan = useMemo(() => previewPlan(asset), [asset]);
  const [selection, setSelection] = useState<FileSelection | undefined>(undefined);
  const [state, setState] = useState<{ state: PreviewState | "idle"; message?: string | undefined }>({ state: "loading" });
  const [started, setStarted] = useState(false);
  const onState = useCallback((next: PreviewState, message?: string) => setState({ state: next, message }), []);

  useEffect(() => {
    setSelection(undefined);
    setStarted(false);
    setState({ state: plan && KINDS[plan.kind].start ? "idle" : "loading" });
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
  const waiting = kind.start !== undefined && !started;
  const start = () => {
    setStarted(true);
    setState({ state: "loading" });
  };
  return (
    <figure class={`preview preview-${plan.kind}`} data-kind={plan.kind} data-state={state.state}>
      {state.state === "failed" || !selection || waiting ? (
        <Thumbnail asset={asset} />
      ) : (
        <View asset={asset} files={selection.files} choices={plan.choices} onState={onState} />
      )}
      {waiting && state.state !== "failed" && (
        <button type="button" class="button primary preview-start" onClick={start} disabled={!selection}>
          {kind.start}
          {selection?.totalBytes !== undefined && <span class="preview-cost">{` · ${bytes((kind.code ?? 0) + selection.totalBytes)}`}</span>}
        </button>
      )}
      {state.state === "failed" && (
        <figcaption class="preview-note">{`${state.message ?? kind.failed} The picture from the source is shown instead.`}</figcaption>
      )}
    </figure>
  );
}
