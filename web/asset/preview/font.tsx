/**
 * A font specimen: the font's own file (the preview selection's, through the raw endpoint) loaded
 * as a FontFace under a name of its own, showing text the person can edit at a few sizes.
 */
import { useEffect, useId, useMemo, useState } from "preact/hooks";
import type { KindProps } from "./kind.ts";
import { rawPath } from "./raw.ts";

const SAMPLE = "The quick brown fox jumps over the lazy dog 0123456789";
const SIZES = [16, 28, 48] as const;

let faces = 0;

export function FontPreview({ asset, files, choices, onState }: KindProps) {
  const file = files[0];
  const src = file ? rawPath(asset.id, file.filename, choices) : undefined;
  // A name no installed font has, so the specimen can only be drawn with this file.
  const family = useMemo(() => `asset-preview-${++faces}`, []);
  const [text, setText] = useState(SAMPLE);
  const id = useId();

  useEffect(() => {
    if (!src) return onState("failed");
    let live = true;
    const face = new FontFace(family, `url("${src}")`);
    face.load().then(
      () => {
        if (!live) return;
        document.fonts.add(face);
        onState("loaded");
      },
      () => live && onState("failed", "This font could not be loaded here."),
    );
    return () => {
      live = false;
      document.fonts.delete(face);
    };
  }, [src, family, onState]);

  const fontFamily = `"${family}", system-ui`;
  return (
    <div class="specimen" data-family={family}>
      <label for={id}>Sample text</label>
      <textarea id={id} rows={2} value={text} onInput={(e) => setText(e.currentTarget.value)} style={{ fontFamily }} />
      {SIZES.map((px) => (
        <p key={px} class="specimen-line" style={{ fontFamily, fontSize: `${px}px` }}>
          <span class="specimen-size">{px}px</span>
          {text || SAMPLE}
        </p>
      ))}
    </div>
  );
}
