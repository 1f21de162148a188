/**
 * The request log: one line per request the server answers (server/log.ts), with its id, method,
 * route template, status, duration and the body bytes written; never the query string, the
 * client's address or its user agent, which the stats do not keep either. The id is the client's
 * `x-request-id` when well-formed, else a new UUID, and every answer carries it back, errors too.
 * The line is written when the response closes, so a zip or an event stream is logged with its
 * whole duration and size (one cut short, with what was written before the cut).
 */
import { randomUUID } from "node:crypto";
import { type IncomingMessage, ServerResponse } from "node:http";
import type { H3Event, Middleware } from "h3";
import type { Logger } from "../log.ts";

export const REQUEST_ID = "x-request-id";

/** A client's id is taken as it is only when it cannot break a header or a log line, nor fill one. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of the request `event` answers, for the lines logged about it (server/errors.ts). */
export function requestIdOf(event: H3Event): string | undefined {
  const id = event.context.requestId;
  return typeof id === "string" ? id : undefined;
}

type WriteCallback = (error?: Error | null) => void;
type Chunk = string | Uint8Array;

const byteLength = (chunk: Chunk, encoding: BufferEncoding | WriteCallback | undefined): number =>
  typeof chunk === "string" ? Buffer.byteLength(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk.byteLength;

/**
 * The server's responses (startServer gives the class to node:http): they count the body bytes
 * written, which an answer does not declare when srvx works its length out or streams it.
 * Headers are written apart, so they are not counted.
 */
export class CountedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  bodyBytes = 0;

  override write(chunk: Chunk, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean {
    this.bodyBytes += byteLength(chunk, encoding);
    return super.write(chunk, encoding as BufferEncoding, callback);
  }

  override end(chunk?: Chunk | (() => void), encoding?: BufferEncoding | (() => void), callback?: () => void): this {
    if (chunk !== undefined && chunk !== null && typeof chunk !== "function") this.bodyBytes += byteLength(chunk, encoding);
    return super.end(chunk as Chunk, encoding as BufferEncoding, callback);
  }
}

/**
 * Gives each request its id and, on the server's own responses (CountedResponse), logs it once
 * the response closes. `routeOf` names the route template the router matched.
 */
export function requestLog(log: Logger, routeOf: (event: H3Event) => string): Middleware {
  return (event, next) => {
    const started = performance.now();
    const sent = event.req.headers.get(REQUEST_ID);
    const requestId = sent !== null && WELL_FORMED.test(sent) ? sent : randomUUID();
    event.context.requestId = requestId;
    // h3 stages the headers of an answer and those of an error apart.
    event.res.headers.set(REQUEST_ID, requestId);
    event.res.errHeaders.set(REQUEST_ID, requestId);
    const res = event.runtime?.node?.res;
    if (res instanceof CountedResponse && log.isLevelEnabled("info")) {
      const { method } = event.req;
      const route = routeOf(event);
      res.once("close", () => {
        log.info({
          event: "request",
          requestId,
          method,
          route,
          // null: the client left before any answer was written.
          status: res.headersSent ? res.statusCode : null,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          bytes: res.bodyBytes,
        });
      });
    }
    return next();
  };
}
