/**
 * One search as it arrives: `GET /v1/search` as server-sent events (EventSource asks with
 * `Accept: text/event-stream`; README "Results as they arrive"), or the one JSON answer where the
 * browser has no EventSource or the stream fails before its end.
 */
import type { SearchResponse, SearchStreamIndex, SearchStreamSource } from "../../core/schemas/index.ts";
import { ApiFailure, getJson } from "../lib/api.ts";

export interface SearchListener {
  index(part: SearchStreamIndex): void;
  source(part: SearchStreamSource): void;
  done(answer: SearchResponse): void;
  /** Said in the page's own words: a source's or the server's internal text never reaches the page. */
  failed(message: string): void;
}

/** What a failed request means to a person; the server's 400 text names the bad parameter, so it is kept. */
export function failureMessage(err: unknown): string {
  if (err instanceof ApiFailure && err.status === 400) return `The search was refused: ${err.message}`;
  if (err instanceof ApiFailure && err.status === 429) return "Too many searches at once: wait a moment and try again.";
  return "The search failed. Check the connection and try again.";
}

/** Starts the search at `path`; the returned function stops it (closes the stream, aborts the request) and silences it. */
export function runSearch(path: string, on: SearchListener): () => void {
  const controller = new AbortController();
  let stopped = false;
  let stream: EventSource | undefined;
  const json = () =>
    getJson<SearchResponse>(path, controller.signal).then(
      (answer) => stopped || on.done(answer),
      (err) => stopped || on.failed(failureMessage(err)),
    );
  const stop = () => {
    stopped = true;
    stream?.close();
    controller.abort();
  };
  if (typeof EventSource !== "function") {
    json();
    return stop;
  }
  const events = new EventSource(path);
  stream = events;
  const read =
    <T>(handle: (data: T) => void) =>
    (e: Event) => {
      if (!stopped) handle(JSON.parse((e as MessageEvent<string>).data) as T);
    };
  events.addEventListener("index", read<SearchStreamIndex>(on.index));
  events.addEventListener("source", read<SearchStreamSource>(on.source));
  events.addEventListener("done", (e) => {
    events.close();
    read<SearchResponse>(on.done)(e);
  });
  events.addEventListener("failed", () => {
    events.close();
    if (!stopped) on.failed("The search failed on the server. Try again in a moment.");
  });
  // EventSource would reconnect and search again; a 400 or 429 arrives as JSON, which the JSON request reads.
  events.onerror = () => {
    events.close();
    if (!stopped) json();
  };
  return stop;
}
