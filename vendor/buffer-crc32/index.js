// yazl computes every entry's CRC-32 through buffer-crc32's interface; Node's zlib.crc32 (native,
// Node >= 20.15) gives the same value many times faster than a JavaScript table. Only the calls yazl
// makes need to work: a Buffer or string, and the previous CRC as a number or a 4-byte Buffer.

const { crc32: zlibCrc32 } = require("node:zlib");

const previousOf = (previous) => (Buffer.isBuffer(previous) ? previous.readUInt32BE(0) : (previous ?? 0) >>> 0);

function unsigned(data, previous) {
  return zlibCrc32(data, previousOf(previous));
}

function crc32(data, previous) {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(unsigned(data, previous));
  return out;
}

crc32.unsigned = unsigned;
crc32.signed = (data, previous) => unsigned(data, previous) | 0;

module.exports = crc32;
