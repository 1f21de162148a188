import type { z } from "zod";
import { shapeError } from "./fetch.ts";

export interface ParsedList<T> {
  items: T[];
  /** Items that did not have the expected shape, left out. */
  dropped: number;
}

/**
 * The items of an upstream list that parse with `schema`; the others are left out and counted.
 * When the list has items and none parse, the site changed: a `shape` error naming the source.
 */
export function parseList<S extends z.ZodType>(source: string, url: string, schema: S, raw: readonly unknown[]): ParsedList<z.infer<S>> {
  const items: z.infer<S>[] = [];
  for (const entry of raw) {
    const parsed = schema.safeParse(entry);
    if (parsed.success) items.push(parsed.data);
  }
  if (raw.length > 0 && items.length === 0) throw shapeError(source, url, `none of the ${raw.length} items of ${url} has the expected shape`);
  return { items, dropped: raw.length - items.length };
}
