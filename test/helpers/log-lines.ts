import { createLogger, type Logger } from "../../server/log.ts";

export type LogLine = Record<string, unknown>;

/** A logger at `info` whose lines are kept, each as written and parsed; `onLine` sees each one as it comes. */
export function capturedLog(onLine?: (line: LogLine) => void): { log: Logger; written: string[]; lines: () => LogLine[] } {
  const written: string[] = [];
  const log = createLogger("info", {
    write(chunk: string) {
      written.push(chunk);
      onLine?.(JSON.parse(chunk) as LogLine);
    },
  });
  return { log, written, lines: () => written.map((chunk) => JSON.parse(chunk) as LogLine) };
}
