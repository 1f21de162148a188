/**
 * An asset over the search (`/?asset=<id>`, every asset's shareUrl): a modal <dialog>, so the page
 * behind is inert. Focus moves to its title on opening and back to the link that opened it on
 * closing; Escape, the close button and a click beside it all call `onClose`, which takes
 * `asset` out of the address (so Back opens it again).
 */
import { useEffect, useRef } from "preact/hooks";
import { followInApp } from "../lib/location.ts";
import { useProviders } from "../lib/providers.ts";
import { useAssetTitle } from "./title.ts";
import { useAsset } from "./use-asset.ts";
import { AssetView } from "./view.tsx";

/** The element to give focus back to: the one focused before, else a link in the page to this asset. */
function opener(id: string): HTMLElement | undefined {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body) return active;
  return document.querySelector<HTMLElement>(`a[href*="asset=${CSS.escape(encodeURIComponent(id))}"]`) ?? undefined;
}

export function AssetDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const load = useAsset(id);
  const providers = useProviders();
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const asset = load.status === "ready" ? load.asset : undefined;
  useAssetTitle(asset?.title, asset && providers.get(asset.provider)?.name);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const back = opener(id);
    el.showModal();
    heading.current?.focus();
    const cancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    // The browser closes a modal itself when Escape is pressed again without a click in between.
    const closed = () => close.current();
    el.addEventListener("cancel", cancel);
    el.addEventListener("close", closed);
    return () => {
      el.removeEventListener("cancel", cancel);
      el.removeEventListener("close", closed);
      el.close();
      if (back?.isConnected) back.focus();
      else opener(id)?.focus();
    };
  }, [id]);

  const title = asset?.title ?? (load.status === "failed" ? "Asset not available" : "Loading…");
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard's way out is Escape (the dialog's cancel event, above)
    <dialog
      ref={dialog}
      class="asset-dialog"
      aria-labelledby="asset-dialog-title"
      // A click on the backdrop lands on the <dialog> itself; every click inside lands on its frame.
      onClick={(event) => event.target === dialog.current && close.current()}
    >
      <div class="dialog-frame">
        <header class="dialog-bar">
          <h2 id="asset-dialog-title" ref={heading} tabIndex={-1}>
            {title}
          </h2>
          {asset && (
            <a class="button" href={`/assets/${encodeURIComponent(id)}`} onClick={followInApp}>
              Asset page
            </a>
          )}
          <button type="button" class="button close" onClick={() => close.current()} aria-label="Close">
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div class="dialog-body">
          <AssetView load={load} level={3} />
        </div>
      </div>
    </dialog>
  );
}
