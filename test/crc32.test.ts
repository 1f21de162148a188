import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// yazl's CRC-32 comes from vendor/buffer-crc32 (package.json `overrides`): buffer-crc32's
// interface over Node's zlib.crc32.
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const fromYazl = createRequire(createRequire(import.meta.url).resolve("yazl"));

describe("the CRC-32 yazl uses", () => {
  it("is the vendored adapter over zlib.crc32, not the JavaScript table", () => {
    expect(fromYazl.resolve("buffer-crc32")).toBe(join(ROOT, "vendor", "buffer-crc32", "index.js"));
  });

  it("gives the standard check values, unsigned and signed, whole or in parts", () => {
    const crc32 = fromYazl("buffer-crc32") as ((data: Buffer | string, previous?: number | Buffer) => Buffer) & {
      unsigned: (data: Buffer | string, previous?: number | Buffer) => number;
      signed: (data: Buffer | string, previous?: number | Buffer) => number;
    };
    // CRC-32/ISO-HDLC check value of "123456789".
    expect(crc32.unsigned(Buffer.from("123456789"))).toBe(0xcbf43926);
    expect(crc32.unsigned("123456789")).toBe(0xcbf43926);
    expect(crc32.signed(Buffer.from("123456789"))).toBe(0xcbf43926 | 0);
    expect(crc32(Buffer.from("123456789")).toString("hex")).toBe("cbf43926");
    const first = crc32.unsigned(Buffer.from("12345"));
    expect(crc32.unsigned(Buffer.from("6789"), first)).toBe(0xcbf43926);
    expect(crc32.unsigned(Buffer.from("6789"), crc32(Buffer.from("12345")))).toBe(0xcbf43926);
    expect(crc32.unsigned(Buffer.alloc(0))).toBe(0);
  });
});
