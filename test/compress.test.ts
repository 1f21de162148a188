/**
 * The API's JSON answers compressed for clients that accept it (server/middleware/compress.ts), and
 * what stays as it is: small bodies, errors, event streams, zips and clients that accept nothing.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { chosenEncoding } from "../server/middleware/compress.ts";
import { testApp } from "./helpers/app.ts";

describe("JSON compression", () => {
  it("chooses brotli, else gzip, as the client accepts them", () => {
    expect(chosenEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chosenEncoding("gzip, deflate")).toBe("gzip");
    expect(chosenEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(chosenEncoding("*")).toBe("gzip");
    expect(chosenEncoding("identity")).toBeUndefined();
    expect(chosenEncoding(null)).toBeUndefined();
  });

  it("compresses a search, the providers and the census, with the same JSON inside", async () => {
    const { get } = await testApp();
    // A search's status lines carry their own times: the same answer, apart from them.
    const same = (json: string) => json.replace(/"tookMs":\d+/g, '"tookMs":0');
    for (const path of ["/v1/search?q=rock", "/v1/providers", "/v1/catalog"]) {
      const plain = await get(path);
      const plainBody = await plain.text();
      const br = await get(path, { headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(br.headers.get("content-encoding"), path).toBe("br");
      expect(br.headers.get("vary"), path).toMatch(/accept-encoding/i);
      const bytes = Buffer.from(await br.arrayBuffer());
      expect(br.headers.get("content-length"), path).toBe(String(bytes.length));
      expect(same(brotliDecompressSync(bytes).toString()), path).toBe(same(plainBody));
      const gz = await get(path, { headers: { "accept-encoding": "gzip" } });
      expect(gz.headers.get("content-encoding"), path).toBe("gzip");
      expect(same(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()), path).toBe(same(plainBody));
      expect(plain.headers.get("content-encoding"), path).toBeNull();
      expect(plain.headers.get("content-type"), path).toBe(br.headers.get("content-type"));
    }
  });

  it("leaves errors, small bodies and event streams as they are", async () => {
    const { get } = await testApp();
    const accept = { "accept-encoding": "br, gzip" };
    const bad = await get("/v1/search?limit=0", { headers: accept });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-encoding")).toBeNull();
    expect((await bad.json()).error).toMatch(/limit/);
    const health = await get("/health", { headers: accept });
    expect(health.headers.get("content-encoding")).toBeNull();
    expect(await health.json()).toEqual({ ok: true });
    const stream = await get("/v1/search?q=rock", { headers: { ...accept, accept: "text/event-stream" } });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("content-encoding")).toBeNull();
    expect(await stream.text()).toMatch(/^event: index\n/);
  });
});
