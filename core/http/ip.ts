/** IPv6 parsing shared by the address guard and the rate limit's client key. */
import { isIP } from "node:net";

/** Expands a valid IPv6 string (a dotted tail allowed) to its eight 16-bit words. */
export function ipv6Words(ip: string): number[] {
  let text = ip;
  const dotted = /[^:]*\.[^:]*$/.exec(text)?.[0];
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split(".").map(Number);
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((word) => parseInt(word, 16));
}

/** Two 16-bit words as a dotted IPv4 address. */
export const wordsToIPv4 = (hi = 0, lo = 0) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The rate limit's key for a client address: an IPv6 address counts by its /64 (what one
 * subscriber or host usually holds, so rotating addresses inside it shares one quota), an
 * IPv4-mapped one as its IPv4, anything else as itself.
 */
export function clientPrefix(ip: string): string {
  const bare = ip.replace(/^\[|\]$/g, "").split("%")[0]!;
  if (isIP(bare) !== 6) return ip;
  const w = ipv6Words(bare);
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) return wordsToIPv4(w[6], w[7]);
  return `${w
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(":")}::/64`;
}
