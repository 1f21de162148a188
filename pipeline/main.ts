import * as core from "@actions/core";
import { loadConfig } from "../core/config.ts";
import { createHttpClient } from "../core/http/client.ts";
import { createRuntime } from "../core/model/runtime.ts";
import { SOURCES } from "../sources/index.ts";
import { reportRun } from "./report.ts";
import { PublicationRefused, runPipeline } from "./run.ts";
import { loadPipelineSettings } from "./settings.ts";

async function main(): Promise<void> {
  const settings = loadPipelineSettings();
  const config = loadConfig();
  const runtime = createRuntime(config, { now: settings.now });
  // The previous publication comes from the real network even when the sources are replayed.
  const previousHttp = settings.previousUrl ? createHttpClient({ config }) : undefined;
  core.startGroup("census and crawl");
  try {
    const { catalog, outcomes, set } = await runPipeline({
      runtime,
      sources: SOURCES,
      dataDir: config.dataDir,
      log: (line) => core.info(line),
      limits: settings,
      ...(settings.previousUrl && previousHttp ? { previous: { url: settings.previousUrl, http: previousHttp } } : {}),
    });
    core.endGroup();
    await reportRun({ catalog, outcomes, set });
  } catch (err) {
    core.endGroup();
    if (!(err instanceof PublicationRefused)) throw err;
    await reportRun({ catalog: err.catalog, outcomes: err.outcomes, refused: err.reason });
  } finally {
    await Promise.all([runtime.http.close(), previousHttp?.close()]);
  }
}

// Any other failure (a bad variable, an unreadable previous publication) fails the step with its message.
await main().catch((err: unknown) => core.setFailed(err instanceof Error ? err.message : String(err)));
