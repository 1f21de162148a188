import { fileURLToPath } from "node:url";
import { loadConfig } from "../../core/config.ts";
import { ReplayDispatcher } from "../../core/http/replay.ts";
import { createRuntime, type Runtime } from "../../core/model/runtime.ts";
import type { SourceContext } from "../../core/model/source.ts";

export const FIXTURES = fileURLToPath(new URL("../fixtures", import.meta.url));

/**
 * A runtime answered from every recording under test/fixtures; nothing reaches the network.
 * `elapsed`: the clock of the sources' tookMs (fakeElapsed of test/helpers/fake-time.ts); the real one without it.
 */
export function replayRuntime(options: { now?: Date; env?: Record<string, string>; elapsed?: () => number } = {}): Runtime & { replay: ReplayDispatcher } {
  const replay = ReplayDispatcher.fromDirectory(FIXTURES, { record: true });
  // Retries off and a tiny back-off so fault tests stay fast; the cache is on, as in production.
  const config = loadConfig({ HTTP_RETRIES: "0", DATA_DIR: "data", ...options.env });
  const { now, elapsed } = options;
  const runtime = createRuntime(config, { replay, ...(now ? { now: () => now } : {}), ...(elapsed ? { elapsed } : {}) });
  return { ...runtime, replay };
}

/** A source context over the recordings, plus the dispatcher to inspect requested URLs. */
export function replayContext(options: { now?: Date; env?: Record<string, string> } = {}): {
  ctx: SourceContext;
  replay: ReplayDispatcher;
} {
  const runtime = replayRuntime(options);
  return { ctx: runtime.context(), replay: runtime.replay };
}
