import { request } from "node:http";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Only this much of a body is kept: enough for any error; a large 200 (a zip) is read and dropped. */
const BODY_KEEP_BYTES = 64 * 1024;
const TIMEOUT_MS = 15_000;

/**
 * One request over a real socket with the path exactly as written: no URL normalisation on the
 * way, so `/mcp/.` or `/v1//search` reach the server as sent. A new connection each time.
 */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on("data", (chunk: Buffer) => {
        if (kept < BODY_KEEP_BYTES) chunks.push(chunk);
        kept += chunk.length;
      });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}
