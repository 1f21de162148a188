/**
 * One GET of the API for a view, as state: the answer once it arrives, or that it failed. With
 * `refreshMs` it is asked again at that pace while the tab is shown (the stats, whose cache keeps
 * an answer that long), keeping the last answer on screen meanwhile.
 */
import { useEffect, useState } from "preact/hooks";
import { getJson } from "./api.ts";

export interface JsonLoad<T> {
  data: T | undefined;
  failed: boolean;
}

export function useJson<T>(path: string, refreshMs?: number): JsonLoad<T> {
  const [load, setLoad] = useState<JsonLoad<T>>({ data: undefined, failed: false });
  useEffect(() => {
    const controller = new AbortController();
    const ask = () =>
      getJson<T>(path, controller.signal).then(
        (data) => setLoad({ data, failed: false }),
        () => controller.signal.aborted || setLoad((last) => ({ data: last.data, failed: last.data === undefined })),
      );
    ask();
    const timer = refreshMs ? setInterval(() => document.visibilityState === "visible" && ask(), refreshMs) : undefined;
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [path, refreshMs]);
  return load;
}

/**
 * Whether every load has answered or failed: a page shows its parts together once they have, so
 * nothing on it moves as the answers arrive one by one (the layout shift a reader sees as a jump).
 */
export const settled = (...loads: JsonLoad<unknown>[]): boolean => loads.every((l) => l.data !== undefined || l.failed);
