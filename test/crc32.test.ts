import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";

// yazl's CRC-32 comes from vendor/buffer-crc32 (package.json `overrides`): buffer-crc32's
// interface over @node-rs/crc32.
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const fromYazl = createRequire(createRequire(import.meta.url).resolve("yazl"));
const adapter = () =>
  fromYazl("buffer-crc32") as ((data: Buffer | string, previous?: number | Buffer) => Buffer) & {
    unsigned: (data: Buffer | string, previous?: number | Buffer) => number;
    signed: (data: Buffer | string, previous?: number | Buffer) => number;
  };

describe("the CRC-32 yazl uses", () => {
  it("is the vendored adapter over @node-rs/crc32, not the JavaScript table", () => {
    expect(fromYazl.resolve("buffer-crc32")).toBe(join(ROOT, "vendor", "buffer-crc32", "index.js"));
  });

  it("gives the standard check values, unsigned and signed, whole or in parts", () => {
    const crc32 = adapter();
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

  it("agrees with zlib.crc32 over a MiB of random bytes, continued from a cut anywhere", () => {
    const crc32 = adapter();
    const data = randomBytes(1024 * 1024);
    for (const cut of [0, 1, 4095, 65_536, 777_777, data.length]) {
      expect(crc32.unsigned(data.subarray(cut), crc32.unsigned(data.subarray(0, cut))), `cut at ${cut}`).toBe(zlibCrc32(data));
    }
  });
});
