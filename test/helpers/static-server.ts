import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = { ".js": "text/javascript", ".json": "application/json" };
const typeOf = (file: string) => TYPES[extname(file)] ?? "application/octet-stream";

/** One request as the static server answered it. */
export interface Served {
  path: string;
  ifNoneMatch: string | undefined;
  status: number;
}

export interface StaticServer {
  url: string;
  /** Every request, in the order answered. */
  log: Served[];
  /** Ends every connection; the test's cleanup calls it. */
  close(): Promise<void>;
}

/**
 * A read-only static server of the folder `root` on 127.0.0.1, as GitHub Pages serves a
 * publication: its files, 404 for anything else, ETag = the body's sha256 and 304 when
 * If-None-Match names it, a content type by extension and `Access-Control-Allow-Origin: *` (so a
 * page on another origin may fetch and import the files). `status` answers every request with that
 * status instead (a failing host).
 */
export async function staticServer(root: string, options: { status?: number } = {}): Promise<StaticServer> {
  const log: Served[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const ifNoneMatch = req.headers["if-none-match"];
    const answer = (status: number, headers: Record<string, string | number> = {}, body?: Buffer | string) => {
      log.push({ path, ifNoneMatch, status });
      res.writeHead(status, headers).end(body);
    };
    if (options.status) return answer(options.status, {}, "unavailable");
    const file = join(root, normalize(decodeURIComponent(path)));
    let body: Buffer;
    try {
      if (!file.startsWith(root + sep)) throw new Error("outside the root");
      body = readFileSync(file);
    } catch {
      return answer(404, {}, "not found");
    }
    const etag = `"${createHash("sha256").update(body).digest("hex")}"`;
    if (ifNoneMatch === etag) answer(304, { etag });
    else answer(200, { etag, "content-length": body.length, "content-type": typeOf(file), "access-control-allow-origin": "*" }, body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
