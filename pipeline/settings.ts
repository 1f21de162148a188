import { type Env, publicationBase } from "../core/config.ts";

/** The pipeline's own environment variables (the server's are in core/config.ts). */
export interface PipelineSettings {
  /** The build's clock: SOURCE_DATE_EPOCH when set, so a rebuild of the same input gives the same bytes. */
  now: () => Date;
  /** A run in which more than this share of the (non-link) sources fail publishes nothing. */
  maxFailedShare: number;
  /** A run whose listing total falls by more than this share against the previous publication publishes nothing. */
  maxListingsDrop: number;
  /** Base URL of the previous publication (its files under `/v1/`); unset = DATA_DIR's live set. */
  previousUrl: string | undefined;
}

export const PIPELINE_DEFAULTS = { MAX_FAILED_SHARE: "0.5", MAX_LISTINGS_DROP: "0.3" } as const;

const value = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v === undefined || v === "" ? undefined : v;
};

/** A share from 0 to 1 (`0.5`), or the variable named in the error. */
function share(env: Env, name: keyof typeof PIPELINE_DEFAULTS): number {
  const raw = value(env, name) ?? PIPELINE_DEFAULTS[name];
  const n = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 0 && n <= 1)) throw new Error(`${name} must be a share from 0 to 1 (such as ${PIPELINE_DEFAULTS[name]}), got '${raw}'`);
  return n;
}

/** SOURCE_DATE_EPOCH: whole seconds since 1970 in ASCII digits, as https://reproducible-builds.org defines it. */
function clock(env: Env): () => Date {
  const raw = value(env, "SOURCE_DATE_EPOCH");
  if (raw === undefined) return () => new Date();
  const date = new Date(Number(raw) * 1000);
  if (!/^\d+$/.test(raw) || Number.isNaN(date.getTime())) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '${raw}'`);
  return () => new Date(date);
}

/** Reads and checks the pipeline's variables; a bad value throws an error that names it. */
export function loadPipelineSettings(env: Env = process.env): PipelineSettings {
  return {
    now: clock(env),
    maxFailedShare: share(env, "MAX_FAILED_SHARE"),
    maxListingsDrop: share(env, "MAX_LISTINGS_DROP"),
    previousUrl: publicationBase("PREVIOUS_URL", value(env, "PREVIOUS_URL")),
  };
}
