/** An asset's details (`GET /v1/assets/<id>`) for a view, fetched when the id changes; the request is dropped with the view. */
import { useEffect, useState } from "preact/hooks";
import type { AssetDetails } from "../../core/schemas/index.ts";
import { ApiFailure, assetPath, getJson } from "../lib/api.ts";

export type AssetLoad = { status: "loading" } | { status: "ready"; asset: AssetDetails } | { status: "failed"; message: string };

function failureText(err: unknown): string {
  if (err instanceof ApiFailure && (err.status === 404 || err.status === 400))
    return "There is no such asset: the link may be mistyped, or the source removed it.";
  if (err instanceof ApiFailure && err.status === 503) return err.message;
  if (err instanceof ApiFailure && err.status >= 500) return "The source site is not answering right now: try again in a moment.";
  return "The asset could not be loaded: check the connection and try again.";
}

export function useAsset(id: string): AssetLoad {
  const [load, setLoad] = useState<AssetLoad>({ status: "loading" });
  useEffect(() => {
    const abort = new AbortController();
    setLoad({ status: "loading" });
    getJson<AssetDetails>(assetPath(id), abort.signal).then(
      (asset) => setLoad({ status: "ready", asset }),
      (err) => {
        if (!abort.signal.aborted) setLoad({ status: "failed", message: failureText(err) });
      },
    );
    return () => abort.abort();
  }, [id]);
  return load;
}
