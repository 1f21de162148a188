/**
 * The browser tab's title while an asset is shown, as the server writes it for the asset's own
 * page (server/web/meta.ts), once the source's name is known; the earlier title comes back after.
 */
import { useEffect } from "preact/hooks";

export function useAssetTitle(title: string | undefined, sourceName: string | undefined): void {
  useEffect(() => {
    if (title === undefined || sourceName === undefined) return;
    const before = document.title;
    document.title = `${title} · ${sourceName} · asset-search`;
    return () => {
      document.title = before;
    };
  }, [title, sourceName]);
}
