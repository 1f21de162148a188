/** Helpers for tests that start a real daemon (Prometheus, Redis) next to the service. */
import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Polls `probe` until it yields a value (undefined or a thrown error mean "not yet"); past
 * `timeoutMs` it fails naming what it waited for, with the daemon's log when there is one.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, log?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${log ? `\n--- log ---\n${log()}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
