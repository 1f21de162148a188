import { fileURLToPath } from "node:url";
import type { Source } from "../../core/model/source.ts";
import { loadPublished } from "../../core/publication/published.ts";
import type { Asset, AssetType } from "../../core/schemas/index.ts";
import { SOURCES } from "../../sources/index.ts";
import { NOW } from "../helpers/app.ts";
import { sourceQuery } from "../helpers/query.ts";
import { replayRuntime } from "../helpers/replay.ts";
import { type JudgedQuery, loadJudgedSet } from "./judged-set.ts";

/** The placeholders the keyed sources' recordings were filed under. */
export const REPLAY_KEYS = { GOOGLE_FONTS_API_KEY: "REPLAY_KEY", FREESOUND_API_KEY: "REPLAY_KEY", THINGIVERSE_TOKEN: "REPLAY_TOKEN" };

export interface Candidate {
  asset: Asset;
  /** "catalogue" for a record of data/, else the live source whose recorded answer holds it. */
  from: string;
}

/** The query's types as the search expands them: texture and material match each other. */
function typesOf(query: JudgedQuery): AssetType[] {
  const types = new Set(query.type ? query.type.split(",").map((t) => t.trim() as AssetType) : []);
  if (types.has("texture") || types.has("material")) types.add("texture").add("material");
  return [...types];
}
const providersOf = (query: JudgedQuery) => (query.providers ? new Set(query.providers.split(",")) : undefined);

/** Whether /v1/search can list this source for the query's filters (a source of packs answers type=pack). */
function sourceAnswers(source: Source, query: JudgedQuery): boolean {
  const types = typesOf(query);
  const packs = types.includes("pack") && source.unit === "packs";
  if (types.length && !packs && !source.assetTypes.some((t) => types.includes(t))) return false;
  if (query.free && source.pricing === "paid") return false;
  return !providersOf(query) || providersOf(query)!.has(source.id);
}

/** Whether a catalogue record passes the query's filters as the index applies them. */
function recordPasses(asset: Asset, query: JudgedQuery): boolean {
  const source = SOURCES.find((s) => s.id === asset.provider);
  if (!source || !sourceAnswers(source, query)) return false;
  const types = typesOf(query);
  if (types.length && !types.includes(asset.type) && !(types.includes("pack") && source.unit === "packs")) return false;
  return !query.free || asset.price?.free === true;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const fieldsText = (a: Asset) => [a.title, ...a.tags, ...(a.categories ?? []), a.description ?? ""].join(" | ");

/**
 * The candidate pool of a query, built without the search engine: every catalogue record that
 * passes the query's filters and holds a pool word at the start of a word of its title, tags,
 * categories or description, plus what each live source's own adapter answers for exactly the
 * request /v1/search sends it (default limit 24) from the recordings.
 */
export async function candidates(query: JudgedQuery, catalogue: readonly Asset[]): Promise<Candidate[]> {
  const words = query.pool.map((w) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(w)}`, "iu"));
  const pooled: Candidate[] = catalogue
    .filter((a) => recordPasses(a, query) && words.some((re) => re.test(fieldsText(a))))
    .map((asset) => ({ asset, from: "catalogue" }));
  const runtime = replayRuntime({ now: NOW, env: REPLAY_KEYS });
  const asked = sourceQuery(query.q, { types: typesOf(query), free: query.free ?? false });
  for (const source of SOURCES) {
    if (source.mode !== "live" || !sourceAnswers(source, query)) continue;
    // A source without a recording for this request answers nothing offline, as in /v1/search.
    const answer = await source.search(asked, runtime.context()).catch(() => undefined);
    for (const asset of answer?.assets.slice(0, asked.limit) ?? []) pooled.push({ asset, from: source.id });
  }
  return pooled;
}

export const loadCatalogue = (): Asset[] => [...loadPublished("data").index.records()];

const oneLine = (s: string, max: number) => s.replace(/\s+/g, " ").slice(0, max);

/** `npx tsx test/relevance/pool.ts [query id …]`: each pool with its fields and current grades, for judging. */
async function main(ids: string[]) {
  const catalogue = loadCatalogue();
  for (const query of loadJudgedSet().queries.filter((q) => !ids.length || ids.includes(q.id))) {
    const pool = await candidates(query, catalogue);
    console.log(`\n## ${query.id}: q=${JSON.stringify(query.q)}${query.type ? ` type=${query.type}` : ""} (${pool.length} candidates)`);
    for (const { asset: a, from } of pool) {
      const grade = query.judgments[a.id] ?? 0;
      console.log(
        `${grade} ${a.id} [${a.type}${from === "catalogue" ? "" : `, live ${from}`}] ${a.title} | tags: ${oneLine(a.tags.join(", "), 120)} | cat: ${(a.categories ?? []).join(", ")} | ${oneLine(a.description ?? "", 160)}`,
      );
    }
    const pooledIds = new Set(pool.map((c) => c.asset.id));
    for (const id of Object.keys(query.judgments).filter((id) => !pooledIds.has(id))) console.log(`NOT IN POOL: ${id}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
