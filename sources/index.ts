import type { Source } from "../core/source.ts";
import { polyhaven } from "./polyhaven.ts";

/** Every source, in the order the providers list shows them. */
export const SOURCES: readonly Source[] = [polyhaven];

export function findSource(id: string, sources: readonly Source[] = SOURCES): Source | undefined {
  return sources.find((s) => s.id === id);
}
