import type { Config } from "../config.ts";
import { createHttpClient } from "../http/client.ts";
import { ReplayDispatcher } from "../http/replay.ts";
import type { SharedCache } from "../http/shared-cache.ts";
import type { HttpClient } from "../http/types.ts";
import type { SourceContext } from "./source.ts";

/** What the server, the pipeline and the CLI share: the config, the one HTTP client, the clocks. */
export interface Runtime {
  config: Config;
  http: HttpClient;
  /** Set in replay mode (ASSET_SERVER_REPLAY or tests). */
  replay?: ReplayDispatcher;
  now: () => Date;
  /** Milliseconds on a monotonic clock, for durations (a source's tookMs); tests give their own to control them. */
  elapsed: () => number;
  context(signal?: AbortSignal): SourceContext;
}

/** `sharedCache`: the upstream responses the replicas share (the server's Redis, with REDIS_URL). */
export function createRuntime(
  config: Config,
  options: { replay?: ReplayDispatcher; now?: () => Date; elapsed?: () => number; sharedCache?: SharedCache } = {},
): Runtime {
  const replay = options.replay ?? (config.replayDir ? ReplayDispatcher.fromDirectory(config.replayDir) : undefined);
  const http = createHttpClient({ config, ...(replay ? { dispatcher: replay } : {}), shared: options.sharedCache });
  const now = options.now ?? (() => new Date());
  return {
    config,
    http,
    ...(replay ? { replay } : {}),
    now,
    elapsed: options.elapsed ?? (() => performance.now()),
    context: (signal) => ({ http, config, now, ...(signal ? { signal } : {}) }),
  };
}
