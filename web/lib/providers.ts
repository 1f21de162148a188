/** The sources as `/v1/providers` lists them, fetched once per page and shared by every view (names, sites, types). */
import { useEffect, useState } from "preact/hooks";
import type { Provider } from "../../core/schemas/index.ts";
import { getJson } from "./api.ts";

let request: Promise<Provider[]> | undefined;

export function loadProviders(): Promise<Provider[]> {
  request ??= getJson<{ providers: Provider[] }>("/v1/providers").then(
    (r) => r.providers,
    (err) => {
      request = undefined; // asked again by the next view
      throw err;
    },
  );
  return request;
}

/** id → provider; empty until the list arrives (views show the id meanwhile). */
export function useProviders(): Map<string, Provider> {
  const [byId, setById] = useState<Map<string, Provider>>(new Map());
  useEffect(() => {
    let live = true;
    loadProviders().then(
      (list) => live && setById(new Map(list.map((p) => [p.id, p]))),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return byId;
}

/** A source's name for people: "Poly Haven", not `polyhaven`. */
export const sourceName = (providers: Map<string, Provider>, id: string): string => providers.get(id)?.name ?? id;
