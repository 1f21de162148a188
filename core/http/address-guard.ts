/**
 * Refuses upstream requests to addresses that are not the public internet (loopback, private,
 * link-local, cloud metadata …), so a URL taken from a source site or a redirect cannot make the
 * server reach into its own network (SSRF).
 *
 * Two checks are needed because neither suffices alone: `assertPublicUrl` sees IP literals, which
 * never reach a resolver (net.connect skips `lookup` for them), and `guardedLookup` sees what a
 * hostname resolves to at connect time, which a URL check cannot know (DNS can point anywhere).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { ipv6Words, wordsToIPv4 } from "./ip.ts";

export class BlockedAddressError extends Error {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`refused to fetch ${target}: ${reason}`);
    this.name = "BlockedAddressError";
  }
}

/** First match wins, so the specific ranges come before the ranges that contain them. */
const RANGES: ReadonlyArray<readonly [reason: string, cidrs: readonly string[]]> = [
  ["a cloud metadata address", ["169.254.169.254/32", "fd00:ec2::254/128"]],
  ["a loopback address", ["127.0.0.0/8", "::1/128"]],
  ["an unspecified address", ["0.0.0.0/8", "::/128"]],
  ["a private address", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]],
  ["a link-local address", ["169.254.0.0/16", "fe80::/10"]],
  ["a carrier-grade NAT address", ["100.64.0.0/10"]],
  ["a multicast address", ["224.0.0.0/4", "ff00::/8"]],
  ["a broadcast address", ["255.255.255.255/32"]],
  ["a benchmarking address", ["198.18.0.0/15"]],
  ["a documentation address", ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20"]],
  // 192.0.0/24: IETF protocol assignments; 192.88.99/24: old 6to4 relays; 100::/64: discard;
  // fec0::/10: deprecated site-local; 64:ff9b:1::/48: NAT64 for local use only.
  ["a reserved address", ["240.0.0.0/4", "192.0.0.0/24", "192.88.99.0/24", "100::/64", "fec0::/10", "64:ff9b:1::/48"]],
];

const RULES = RANGES.map(([reason, cidrs]) => {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net = "", bits = ""] = cidr.split("/");
    list.addSubnet(net, Number(bits), isIP(net) === 6 ? "ipv6" : "ipv4");
  }
  return { reason, list };
});

/** Every IPv6 unicast address assigned so far lies in 2000::/3; anything else is reserved. */
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet("2000::", 3, "ipv6");

function matchRange(ip: string, type: "ipv4" | "ipv6"): string | undefined {
  return RULES.find((rule) => rule.list.check(ip, type))?.reason;
}

/**
 * Parses IPv4 the way inet_aton and the WHATWG URL parser do: 1 to 4 parts, each decimal, octal
 * (leading 0) or hex (0x), the last part filling the remaining bytes (127.1, 2130706433).
 * Returns dotted decimal, or undefined when the string is not such an address.
 */
function parseIPv4(text: string): string | undefined {
  const parts = text.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop(); // "127.0.0.1." is the same host
  if (parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) n = parseInt(part, 8);
    else if (/^[1-9][0-9]*$/.test(part)) n = Number(part);
    else return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return undefined;
  const value = nums.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** The IPv4 address an IPv6 address stands for, and whether reaching it that way is legitimate. */
function embeddedIPv4(w: number[]): { kind: string; v4: string; routable: boolean } | undefined {
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  const tail = wordsToIPv4(w[6], w[7]);
  if (zero(0, 5) && w[5] === 0xffff) return { kind: "IPv4-mapped", v4: tail, routable: true };
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) return { kind: "NAT64", v4: tail, routable: true };
  if (w[0] === 0x2002) return { kind: "6to4", v4: wordsToIPv4(w[1], w[2]), routable: true };
  if (zero(0, 4) && w[4] === 0xffff && w[5] === 0) return { kind: "IPv4-translated", v4: tail, routable: false };
  // ::/96 minus :: and ::1, which are their own IPv6 addresses
  if (zero(0, 6) && (w[6] !== 0 || (w[7] ?? 0) > 1)) return { kind: "IPv4-compatible", v4: tail, routable: false };
  return undefined;
}

/** The reason the IP (v4 or v6, any literal form, brackets and zone allowed) must never be contacted, or undefined. Not-an-IP is undefined. */
export function blockedReason(ip: string): string | undefined {
  const text = ip.replace(/^\[(.*)\]$/, "$1");
  const v4 = parseIPv4(text);
  if (v4 !== undefined) {
    const reason = matchRange(v4, "ipv4");
    return reason && `${ip}${v4 === ip ? "" : ` (${v4})`} is ${reason}`;
  }
  const v6 = text.replace(/%.*$/, ""); // a zone id (fe80::1%eth0) does not change the address
  if (isIP(v6) !== 6) return undefined;
  const embedded = embeddedIPv4(ipv6Words(v6));
  if (embedded) {
    const reason = matchRange(embedded.v4, "ipv4");
    if (reason) return `${ip} (${embedded.kind} ${embedded.v4}) is ${reason}`;
  }
  const reason = matchRange(v6, "ipv6");
  if (reason) return `${ip} is ${reason}`;
  if (!embedded?.routable && !GLOBAL_UNICAST_V6.check(v6, "ipv6")) return `${ip} is a reserved address`;
  return undefined;
}

/** Hostnames that reach the machine itself or a cloud metadata service without any DNS. */
function blockedHostname(host: string): string | undefined {
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is a local hostname`;
  if (host === "metadata" || host === "metadata.google.internal") return `${host} is a cloud metadata hostname`;
  return undefined;
}

/**
 * Throws BlockedAddressError when the URL's scheme is not http/https, its host is a blocked IP
 * literal (any form), or a local or metadata hostname. Returns the parsed URL. An unparsable URL
 * throws the URL parser's TypeError.
 */
export function assertPublicUrl(url: string | URL): URL {
  const u = typeof url === "string" ? new URL(url) : url;
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new BlockedAddressError(u.href, `${u.protocol} is not an allowed scheme (only http and https)`);
  }
  // WHATWG already normalises IPv4 forms to dotted decimal; the loose parser covers any other URL source.
  const host = u.hostname.toLowerCase().replace(/\.+$/, "");
  const reason = blockedReason(host) ?? blockedHostname(host);
  if (reason) throw new BlockedAddressError(u.href, reason);
  return u;
}

type LookupAllCallback = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;
type AnyCallback = (err: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;

/**
 * A drop-in `lookup` for net.connect / undici's `connect`: resolves through `base` and fails with
 * BlockedAddressError if ANY answered address is blocked. It always asks `base` for every address
 * (all: true) so a hostname that mixes public and private answers is refused whichever the socket
 * would pick, then answers in the shape the caller asked for.
 */
export function guardedLookup(base: typeof dnsLookup = dnsLookup): typeof dnsLookup {
  function guarded(hostname: string, options: unknown, callback?: unknown): void {
    const cb = (typeof options === "function" ? options : callback) as AnyCallback;
    const opts: LookupOptions = typeof options === "number" ? { family: options } : typeof options === "object" && options ? options : {};
    const done: LookupAllCallback = (err, addresses) => {
      if (err) return cb(err);
      const blocked = addresses.map((a) => blockedReason(a.address)).find((r) => r !== undefined);
      if (blocked) return cb(new BlockedAddressError(hostname, blocked));
      if (opts.all) return cb(null, addresses);
      const first = addresses[0];
      if (!first) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname }));
      cb(null, first.address, first.family);
    };
    base(hostname, { ...opts, all: true }, done);
  }
  return guarded as unknown as typeof dnsLookup;
}
