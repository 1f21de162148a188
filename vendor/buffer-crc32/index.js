// yazl computes every entry's CRC-32 through buffer-crc32's interface. @node-rs/crc32 (SIMD, native)
// gives the same value about three times faster than Node's zlib.crc32, which itself is many times
// faster than buffer-crc32's JavaScript table; on a fast link the CRC is most of what a stored
// entry costs (bench/zip.ts). Only the calls yazl makes need to work: a Buffer or string, and the
// previous CRC as a number or a 4-byte Buffer.

const { crc32: simdCrc32 } = require("@node-rs/crc32");

const previousOf = (previous) => (Buffer.isBuffer(previous) ? previous.readUInt32BE(0) : (previous ?? 0) >>> 0);

function unsigned(data, previous) {
  return simdCrc32(data, previousOf(previous));
}

function crc32(data, previous) {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(unsigned(data, previous));
  return out;
}

crc32.unsigned = unsigned;
crc32.signed = (data, previous) => unsigned(data, previous) | 0;

module.exports = crc32;
