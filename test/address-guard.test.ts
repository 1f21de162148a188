import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { assertPublicUrl, BlockedAddressError, blockedReason, guardedLookup } from "../core/http/address-guard.ts";

/** Runs `fn` and returns what it threw (fails the test when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("assertPublicUrl", () => {
  // [url, a word the reason must contain]
  const blocked: Array<[string, string]> = [
    ["http://127.0.0.1/x", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::ffff:7f00:1]/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f000001/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://0x7f.0.0.1/", "loopback"],
    ["http://127.1/", "loopback"],
    ["http://169.254.169.254/latest/meta-data", "metadata"],
    ["http://[fd00:ec2::254]/", "metadata"],
    ["http://[::ffff:169.254.169.254]/", "metadata"],
    ["http://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["http://metadata/", "metadata"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://10.1.2.3/", "private"],
    ["http://192.168.0.1/", "private"],
    ["http://172.16.0.1/", "private"],
    ["http://172.31.255.255/", "private"],
    ["http://[fc00::1]/", "private"],
    ["http://[fe80::1]/", "link-local"],
    ["http://169.254.1.1/", "link-local"],
    ["http://224.0.0.1/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://255.255.255.255/", "broadcast"],
    ["http://198.18.0.1/", "benchmarking"],
    ["http://240.0.0.1/", "reserved"],
    ["http://192.0.2.1/", "documentation"],
    ["http://[64:ff9b::a00:1]/", "private"], // NAT64 of 10.0.0.1
    ["http://[2002:7f00:1::]/", "loopback"], // 6to4 of 127.0.0.1
    ["http://[::7f00:1]/", "loopback"], // IPv4-compatible 127.0.0.1
    ["http://localhost/", "local hostname"],
    ["http://LOCALHOST./", "local hostname"],
    ["http://api.localhost:8080/", "local hostname"],
    ["file:///etc/passwd", "scheme"],
    ["ftp://x/", "scheme"],
    ["gopher://example.com/", "scheme"],
  ];
  it.each(blocked)("refuses %s", (url, why) => {
    const err = thrown(() => assertPublicUrl(url));
    expect(err).toBeInstanceOf(BlockedAddressError);
    const e = err as BlockedAddressError;
    expect(e.target).toBe(new URL(url).href);
    expect(e.reason).toContain(why);
    expect(e.message).toBe(`refused to fetch ${e.target}: ${e.reason}`);
  });

  it("words the message as documented", () => {
    expect(thrown(() => assertPublicUrl("http://127.0.0.1/x"))).toMatchObject({
      message: "refused to fetch http://127.0.0.1/x: 127.0.0.1 is a loopback address",
    });
  });

  const allowed = [
    "http://8.8.8.8/",
    "https://dl.polyhaven.org/file/x",
    "http://[2606:4700::1111]/",
    "http://172.32.0.1/",
    "http://172.15.255.255/",
    "http://100.128.0.1/",
    "http://[::ffff:8.8.8.8]/",
    "http://[64:ff9b::808:808]/", // NAT64 of 8.8.8.8
    "https://localhost.example.com/",
    "https://metadata.example.com/",
  ];
  it.each(allowed)("allows %s", (url) => {
    const u = assertPublicUrl(url);
    expect(u).toBeInstanceOf(URL);
    expect(u.href).toBe(new URL(url).href);
  });

  it("returns the same URL object it was given", () => {
    const u = new URL("https://example.com/a");
    expect(assertPublicUrl(u)).toBe(u);
  });
});

describe("blockedReason on raw literals (forms WHATWG would normalise, as a resolver may see them)", () => {
  const blocked: Array<[string, string]> = [
    ["127.0.0.1", "127.0.0.1 is a loopback address"],
    ["2130706433", "2130706433 (127.0.0.1) is a loopback address"],
    ["0x7f000001", "0x7f000001 (127.0.0.1) is a loopback address"],
    ["0177.0.0.1", "0177.0.0.1 (127.0.0.1) is a loopback address"],
    ["0x7f.0.0.1", "0x7f.0.0.1 (127.0.0.1) is a loopback address"],
    ["0x7F.1", "0x7F.1 (127.0.0.1) is a loopback address"],
    ["127.1", "127.1 (127.0.0.1) is a loopback address"],
    ["10.1", "10.1 (10.0.0.1) is a private address"],
    ["192.168.257", "192.168.257 (192.168.1.1) is a private address"],
    ["127.0.0.1.", "127.0.0.1. (127.0.0.1) is a loopback address"],
    ["::1", "::1 is a loopback address"],
    ["[::1]", "[::1] is a loopback address"],
    ["::ffff:127.0.0.1", "::ffff:127.0.0.1 (IPv4-mapped 127.0.0.1) is a loopback address"],
    ["::ffff:7f00:1", "::ffff:7f00:1 (IPv4-mapped 127.0.0.1) is a loopback address"],
    ["0:0:0:0:0:FFFF:A9FE:A9FE", "0:0:0:0:0:FFFF:A9FE:A9FE (IPv4-mapped 169.254.169.254) is a cloud metadata address"],
    ["::ffff:0:a00:1", "::ffff:0:a00:1 (IPv4-translated 10.0.0.1) is a private address"],
    ["64:ff9b::192.168.0.1", "64:ff9b::192.168.0.1 (NAT64 192.168.0.1) is a private address"],
    ["2002:a9fe:a9fe::1", "2002:a9fe:a9fe::1 (6to4 169.254.169.254) is a cloud metadata address"],
    ["fe80::1%eth0", "fe80::1%eth0 is a link-local address"],
    ["fd00:ec2::254", "fd00:ec2::254 is a cloud metadata address"],
    ["fec0::1", "fec0::1 is a reserved address"],
    ["::8.8.8.8", "::8.8.8.8 is a reserved address"], // deprecated IPv4-compatible form
    ["4000::1", "4000::1 is a reserved address"], // outside 2000::/3
    ["2001:db8::1", "2001:db8::1 is a documentation address"],
  ];
  it.each(blocked)("%s", (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  const notBlocked = [
    "8.8.8.8",
    "134744072", // 8.8.8.8 as one integer
    "0x08080808",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "2002:808:808::1", // 6to4 of 8.8.8.8
    "example.com", // not an IP at all: hostnames are checked after resolution
    "1.2.3.4.5",
    "08.0.0.1", // not valid octal, so not an address
    "4294967296", // one past 255.255.255.255
    "",
  ];
  it.each(notBlocked)("%s is not blocked", (ip) => {
    expect(blockedReason(ip)).toBeUndefined();
  });
});

describe("WHATWG URL normalisation (the guard must not depend on it, but documents it)", () => {
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
  ])("%s has hostname %s", (url, host) => {
    expect(new URL(url).hostname).toBe(host);
  });
});

describe("guardedLookup", () => {
  type Call = { hostname: string; options: unknown };

  /** A dns.lookup stand-in that answers `answers` and honours options.all like the real one. */
  function fakeLookup(answers: LookupAddress[], calls: Call[] = []) {
    return ((hostname: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
      calls.push({ hostname, options });
      setImmediate(() => {
        if (options.all) cb(null, answers);
        else cb(null, answers[0]?.address, answers[0]?.family);
      });
    }) as unknown as typeof import("node:dns").lookup;
  }

  /** Calls a lookup in the (hostname, options, callback) form and collects the callback's arguments. */
  function run(lookup: typeof import("node:dns").lookup, options: { all: boolean }) {
    return new Promise<unknown[]>((resolve) => {
      (lookup as unknown as (h: string, o: object, cb: (...args: unknown[]) => void) => void)("assets.example.com", options, (...args) => resolve(args));
    });
  }

  const mixed: LookupAddress[] = [
    { address: "93.184.216.34", family: 4 },
    { address: "10.0.0.5", family: 4 },
  ];
  const publicOnly: LookupAddress[] = [
    { address: "93.184.216.34", family: 4 },
    { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
  ];

  it.each([true, false])("fails when any answer is blocked (all: %s)", async (all) => {
    const calls: Call[] = [];
    const [err] = await run(guardedLookup(fakeLookup(mixed, calls)), { all });
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).target).toBe("assets.example.com");
    expect((err as BlockedAddressError).reason).toBe("10.0.0.5 is a private address");
    // even when the caller wants one address, every answer is fetched and checked
    expect(calls).toEqual([{ hostname: "assets.example.com", options: { all: true } }]);
  });

  it("fails on an IPv4-mapped private answer", async () => {
    const answers = [{ address: "::ffff:7f00:1", family: 6 }];
    const [err] = await run(guardedLookup(fakeLookup(answers)), { all: true });
    expect(err).toBeInstanceOf(BlockedAddressError);
  });

  it("passes public answers through unchanged with all: true", async () => {
    const args = await run(guardedLookup(fakeLookup(publicOnly)), { all: true });
    expect(args).toEqual([null, publicOnly]);
  });

  it("passes the first public answer through with all: false", async () => {
    const args = await run(guardedLookup(fakeLookup(publicOnly)), { all: false });
    expect(args).toEqual([null, "93.184.216.34", 4]);
  });

  it("keeps the caller's other options and accepts the (hostname, callback) form", async () => {
    const calls: Call[] = [];
    const lookup = guardedLookup(fakeLookup(publicOnly, calls));
    const args = await new Promise<unknown[]>((resolve) => lookup("a.example", (...a: unknown[]) => resolve(a)));
    expect(args).toEqual([null, "93.184.216.34", 4]);
    await run(lookup, { all: false, family: 4 } as { all: boolean });
    expect(calls.map((c) => c.options)).toEqual([{ all: true }, { all: true, family: 4 }]);
  });

  it("passes the base lookup's error through", async () => {
    const failing = ((_h: string, _o: unknown, cb: (err: Error) => void) =>
      cb(Object.assign(new Error("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" }))) as unknown as typeof import("node:dns").lookup;
    const [err] = await run(guardedLookup(failing), { all: false });
    expect(err).toMatchObject({ code: "ENOTFOUND" });
    expect(err).not.toBeInstanceOf(BlockedAddressError);
  });

  it("works as net.connect's lookup: a hostname resolving to loopback is refused", async () => {
    const net = await import("node:net");
    const lookup = guardedLookup(fakeLookup([{ address: "127.0.0.1", family: 4 }]));
    const err = await new Promise<unknown>((resolve) => {
      const socket = net.connect({ host: "assets.example.com", port: 9, lookup });
      socket.on("error", resolve);
      socket.on("connect", () => {
        socket.destroy();
        resolve(undefined);
      });
    });
    expect(err).toBeInstanceOf(BlockedAddressError);
  });
});
