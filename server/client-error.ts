/**
 * Requests Node's HTTP parser refuses never reach the app: without a `clientError` listener Node
 * answers them with an empty body (431, 400, 408). Here they get the contract's JSON error
 * (`{ "error": "…" }`), and the time a client has to send its request is bounded.
 */
import { type IncomingMessage, maxHeaderSize, type ServerOptions, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { Config } from "../core/config.ts";

type Timeouts = Pick<Config, "serverHeadersTimeoutMs" | "serverRequestTimeoutMs">;

/**
 * Node's `headersTimeout`/`requestTimeout` cover receiving the request only (headers, then the
 * whole request with its body), never the response, so a long download is not cut. Node checks
 * them every `connectionsCheckingInterval` (30 s by default, which would make a cut that late):
 * here every quarter of the shortest timeout, at most 1 s and at least 100 ms.
 */
export function requestTimeouts(config: Timeouts): Pick<ServerOptions, "headersTimeout" | "requestTimeout" | "connectionsCheckingInterval"> {
  const enabled = [config.serverHeadersTimeoutMs, config.serverRequestTimeoutMs].filter((ms) => ms > 0);
  return {
    headersTimeout: config.serverHeadersTimeoutMs,
    requestTimeout: config.serverRequestTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.floor(Math.min(4000, ...enabled) / 4)),
  };
}

const seconds = (ms: number) => `${ms / 1000} s`;

/** What Node's `clientError` carries: llhttp's `HPE_*` code and reason, or Node's request timeout. */
export interface ClientError {
  code?: string | undefined;
  reason?: string | undefined;
}

/**
 * The status and message for a client error. Parse errors other than the common ones are named by
 * llhttp's reason: a fixed text (e.g. "Duplicate Content-Length"), never request data.
 */
function clientErrorAnswer({ code, reason }: ClientError, config: Timeouts): { status: number; error: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, error: `request headers or URL too large (over ${maxHeaderSize / 1024} KiB)` };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, error: "chunk extensions of the request body too large" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        error:
          `request not received in time: headers are due within ${seconds(config.serverHeadersTimeoutMs)}, ` +
          `the whole request within ${seconds(config.serverRequestTimeoutMs)}`,
      };
    case "HPE_INVALID_METHOD":
      return { status: 400, error: "malformed request: unknown HTTP method" };
    case "HPE_INVALID_CONSTANT":
      return { status: 400, error: "malformed request line: expected '<method> <target> HTTP/1.1' (a space in the URL must be sent as %20)" };
    default:
      return { status: 400, error: reason ? `malformed request: ${lowerFirst(reason)}` : `malformed request (${code ?? "unparseable"})` };
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** A complete HTTP/1.1 response carrying the JSON error; the connection closes after it. */
function rawJsonResponse(status: number, error: string): string {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

/**
 * The `clientError` listener. As Node's default one: an answer only when the socket can still take
 * one and no byte of a response went out on it (`_httpMessage` is the socket's response in
 * flight; writing then would corrupt it). The socket is destroyed once the answer is flushed:
 * http sockets are half-open, so `end` alone would leave closing to the client.
 */
export function onClientError(config: Timeouts): (err: NodeJS.ErrnoException & ClientError, socket: Duplex) => void {
  return (err, socket) => {
    const response = (socket as Duplex & { _httpMessage?: { headersSent: boolean } | null })._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, error } = clientErrorAnswer(err, config);
    socket.end(rawJsonResponse(status, error), () => socket.destroy());
  };
}

/** The `checkExpectation` listener: an `Expect` other than 100-continue, which Node would answer 417 with an empty body. */
export function onUnsupportedExpectation(req: IncomingMessage, res: ServerResponse): void {
  const expect = String(req.headers.expect ?? "").slice(0, 100);
  const body = JSON.stringify({ error: `unsupported Expect '${expect}': only 100-continue is understood` });
  res.writeHead(417, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" }).end(body);
}
