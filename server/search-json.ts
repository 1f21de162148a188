/**
 * A search answer as JSON bytes: the same bytes as `JSON.stringify` of its SearchResponse
 * (core/search/answer.ts asResponse) in UTF-8, written mostly from bytes kept per record. A result
 * is its record with a `score` added last, so its JSON is the record's JSON with that one field
 * before the closing brace. The record's bytes are kept for as long as the record object lives:
 * an index record stays the same object while the index holds it and is never changed once made.
 * Stringifying and encoding a 24 KB answer anew cost about a third of a search's own time; the
 * search route answers with these bytes (bench/README.md).
 */
import type { Ranked } from "../core/relevance/ranking.ts";
import type { Asset } from "../core/schemas/index.ts";
import { type SearchAnswer, scored } from "../core/search/answer.ts";

/** A record's JSON bytes without the closing brace. */
const openBytes = new WeakMap<Asset, Buffer>();

function resultBytes(result: Ranked): Buffer[] {
  const { asset } = result;
  // A record holding a score of its own keeps that key's place: its result is written in full.
  if (Object.hasOwn(asset, "score")) return [Buffer.from(JSON.stringify(scored(result)))];
  let open = openBytes.get(asset);
  if (!open) {
    const json = Buffer.from(JSON.stringify(asset));
    open = json.subarray(0, json.length - 1);
    openBytes.set(asset, open);
  }
  return [open, Buffer.from(`,"score":${JSON.stringify(result.score)}}`)];
}

/** The answer's fields in their own order, an undefined one left out, as JSON.stringify writes them. */
export function searchJson(answer: SearchAnswer): Buffer {
  const parts: Buffer[] = [];
  let text = "{";
  for (const [key, value] of Object.entries(answer)) {
    if (value === undefined) continue;
    text += `${text === "{" ? "" : ","}${JSON.stringify(key)}:`;
    if (key !== "results") {
      text += JSON.stringify(value);
      continue;
    }
    text += "[";
    answer.results.forEach((result, i) => {
      parts.push(Buffer.from(i ? `${text},` : text), ...resultBytes(result));
      text = "";
    });
    text += "]";
  }
  parts.push(Buffer.from(`${text}}`));
  return Buffer.concat(parts);
}
