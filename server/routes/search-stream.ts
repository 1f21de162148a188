/**
 * GET /v1/search as server-sent events, for a request whose Accept asks for them: the events of
 * core/schemas/search-stream.ts, framed by h3's EventStream. The parameters and source ids are
 * checked before the stream begins (a bad one is still a 400 JSON answer); the rate limit and the
 * key ran before the handler (server/app.ts), once per request; the search is counted once, when
 * its final answer is ready (server/stats/hooks.ts countSearch).
 */
import { EventStream, type H3Event } from "h3";
import type { z } from "zod";
import type { SearchParams } from "../../core/model/search-params.ts";
import type { SEARCH_STREAM_EVENTS, SearchStreamEventName } from "../../core/schemas/index.ts";
import { asResponse } from "../../core/search/answer.ts";
import type { AppDeps } from "../context.ts";
import { noLog } from "../log.ts";
import { requestIdOf } from "../middleware/request-log.ts";
import { prepareSearch } from "../service/search.ts";
import { countSearch } from "../stats/hooks.ts";

/**
 * Whether a GET asks for the stream: `text/event-stream` named in Accept with a higher weight than
 * any `application/json` named there. Wildcards and everything else keep the JSON answer.
 */
export function wantsEventStream(event: H3Event): boolean {
  if (event.req.method !== "GET") return false;
  const weights = new Map<string, number>();
  for (const range of (event.req.headers.get("accept") ?? "").split(",")) {
    const [type = "", ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    weights.set(type, q ? Number(q.slice(2)) || 0 : 1);
  }
  return (weights.get("text/event-stream") ?? 0) > (weights.get("application/json") ?? 0);
}

/** The stream of one search: `index`, a `source` per live source, then `done` (or `failed`). */
export function streamSearch(event: H3Event, deps: AppDeps, params: SearchParams, listedAt: string): EventStream {
  const run = prepareSearch(params, deps, listedAt); // throws the 400 before any byte of the stream
  const stream = new EventStream(event);
  const send = <N extends SearchStreamEventName>(name: N, data: z.output<(typeof SEARCH_STREAM_EVENTS)[N]>) =>
    void stream.push({ event: name, data: JSON.stringify(data) });
  // The client going away (the request's signal, or the stream closing under it) ends the search:
  // its live sources' requests are aborted (core/search/search.ts searchLiveSources, core/time-box.ts).
  const gone = new AbortController();
  const leave = () => gone.abort(new DOMException("the client closed the search stream", "AbortError"));
  event.req.signal?.addEventListener("abort", leave, { once: true });
  stream.onClosed(leave);
  const answer = run({ signal: gone.signal, observer: { index: (data) => send("index", data), source: (data) => send("source", data) } });
  countSearch(event, deps.usage, answer)
    .then(
      (res) => send("done", asResponse(res)),
      (error: unknown) => {
        (deps.log ?? noLog).error({ event: "error", requestId: requestIdOf(event), err: error }, "unexpected error: the search stream ends with failed");
        send("failed", { error: "internal error" });
      },
    )
    .finally(() => {
      event.req.signal?.removeEventListener("abort", leave);
      return stream.close();
    });
  return stream;
}
