/**
 * The events of `GET /v1/search` with `Accept: text/event-stream` (server/routes/search-stream.ts):
 * `index` once, then `source` once per live source asked, then `done` (or `failed`). Each event's
 * `data` is one line of JSON.
 */
import { z } from "zod";
import { Asset } from "./asset.ts";
import { ErrorBody } from "./error.ts";
import { ProviderReport, SearchResponse } from "./search.ts";

export const SearchStreamIndex = z
  .object({
    results: z.array(Asset).describe("the index's results ranked among themselves, to the limit: the answer if no live source were asked"),
    providers: z.array(ProviderReport).describe("the status lines known once the index has answered: indexed, skipped and link-only sources"),
    pending: z.array(z.string()).describe("ids of the live sources asked, each still to answer with a `source` event"),
  })
  .meta({ id: "SearchStreamIndex" });
export type SearchStreamIndex = z.infer<typeof SearchStreamIndex>;

export const SearchStreamSource = z
  .object({
    provider: ProviderReport.describe("the live source's status line, as the final answer will hold it"),
    results: z.array(Asset).describe("its results ranked among themselves (scores are provisional until `done`)"),
  })
  .meta({ id: "SearchStreamSource" });
export type SearchStreamSource = z.infer<typeof SearchStreamSource>;

/** Event name → the schema of its data. */
export const SEARCH_STREAM_EVENTS = {
  index: SearchStreamIndex,
  source: SearchStreamSource,
  done: SearchResponse,
  failed: ErrorBody,
} as const;
export type SearchStreamEventName = keyof typeof SEARCH_STREAM_EVENTS;

const event = <N extends SearchStreamEventName>(name: N, description: string) =>
  z.object({ event: z.literal(name), data: SEARCH_STREAM_EVENTS[name] }).describe(description);

export const SearchStreamEvent = z
  .discriminatedUnion("event", [
    event("index", "first, as soon as the index has answered"),
    event("source", "one per live source asked, as it answers (or times out, or fails)"),
    event("done", "last: the merged final ranking, the same SearchResponse the JSON answer holds"),
    event("failed", "last, instead of done, if the search itself failed after the stream began"),
  ])
  .describe("One server-sent event: `event` is its name, `data` its JSON")
  .meta({ id: "SearchStreamEvent" });
export type SearchStreamEvent = z.infer<typeof SearchStreamEvent>;
