/**
 * The running server's logger: one JSON line per request (server/middleware/request-log.ts) and
 * per event (`event`: start, data_swap, redis_down, download_failed, shutdown…), at LOG_LEVEL.
 * Lines go to stderr, as the server's lines always did: stdout stays free for what a command
 * prints (the MCP stdio transport shares createDeps). On a terminal they are made readable by
 * pino-pretty instead. Nothing of a client is logged but the request id it may send: no query
 * string, address or user agent, as for the stats (server/stats/metrics.ts).
 */
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger } from "pino";
import type PinoPretty from "pino-pretty";
import type { LogLevel } from "../core/config.ts";

export type { Logger };

/** The fields of a request line, which a terminal shows as one phrase instead. */
const REQUEST_FIELDS = "requestId,method,route,status,durationMs,bytes";

/** A request line as that phrase; any other line by its message. Both end with the request id, when there is one. */
function readable(line: Record<string, unknown>, messageKey: string): string {
  const id = line.requestId ? ` [${line.requestId}]` : "";
  if (line.event !== "request") return `${line[messageKey] ?? line.event}${id}`;
  return `${line.method} ${line.route} ${line.status} ${line.durationMs} ms ${line.bytes} B${id}`;
}

/**
 * A logger at `level` writing to `destination` (tests capture lines so), else to stderr: JSON
 * lines, written synchronously so they keep their order with the one-line start-up errors of
 * server/main.ts; or, when stderr is a terminal, pino-pretty's coloured lines.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (destination) return pino(options, destination);
  if (!process.stderr.isTTY) return pino(options, pino.destination({ dest: 2, sync: true }));
  // Loaded only for a terminal: a server in production never needs it.
  const pretty = createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
  const stream = pretty({
    destination: 2,
    sync: true,
    colorize: true,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: `pid,hostname,event,${REQUEST_FIELDS}`,
    messageFormat: readable,
  });
  return pino(options, stream);
}

/** For what runs without a server's logger (tests, benches): writes nothing. */
export const noLog: Logger = pino({ enabled: false });
