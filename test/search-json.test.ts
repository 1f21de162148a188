import { describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { ReplayDispatcher } from "../core/http/replay.ts";
import { createRuntime } from "../core/model/runtime.ts";
import { SearchParams } from "../core/model/search-params.ts";
import { loadPublished } from "../core/publication/published.ts";
import type { Asset } from "../core/schemas/index.ts";
import { asResponse, type SearchAnswer } from "../core/search/answer.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchRanked } from "../core/search/search.ts";
import { searchJson } from "../server/search-json.ts";
import { SOURCES } from "../sources/index.ts";

const INDEXED = SOURCES.filter((s) => s.mode === "indexed");
const deps = {
  sources: INDEXED,
  index: loadPublished("data").index,
  runtime: createRuntime(loadConfig({}), { replay: new ReplayDispatcher() }),
  breakers: new BreakerRegistry(),
};
/** What the writer must match: JSON.stringify of the answer as the contract shows it. */
const asJson = (answer: SearchAnswer) => Buffer.from(JSON.stringify(asResponse(answer)));

const record = (over: Partial<Asset> = {}): Asset => ({
  id: "example:1",
  provider: "example",
  nativeId: "1",
  title: "Café chair ✓",
  type: "model",
  tags: ["chair"],
  url: "https://example.com/1",
  downloadable: true,
  ...over,
});

describe("searchJson", () => {
  it("writes the bytes JSON.stringify writes, for answers of the shipped index, asked twice (records written before)", async () => {
    const asks = [{ q: "chair" }, { q: "wood planks", facets: "true" }, { q: "rock", type: "texture" }, { q: "roboto" }, { q: "ui sounds", limit: "50" }];
    for (let round = 0; round < 2; round++) {
      for (const ask of asks) {
        const res = await searchRanked(SearchParams.parse(ask), deps);
        expect(res.results.length, ask.q).toBeGreaterThan(0);
        expect(searchJson(res).equals(asJson(res)), `${ask.q} (round ${round})`).toBe(true);
      }
    }
  });

  it("writes a merged result (alsoOn) and non-ASCII text as JSON.stringify does", async () => {
    // The same font family from two sources: one result with alsoOn, a new object.
    const res = await searchRanked(SearchParams.parse({ q: "roboto", type: "font" }), deps);
    expect(res.results.some((r) => r.asset.alsoOn?.length)).toBe(true);
    expect(searchJson(res).equals(asJson(res))).toBe(true);
    const one = { asset: record(), score: 0.5 };
    const answer: SearchAnswer = { query: "café ✓", results: [one, one], providers: [] };
    expect(searchJson(answer).equals(asJson(answer))).toBe(true);
  });

  it("writes in full a result whose record had a score of its own, that score's place kept and its value the ranking's", () => {
    const own = { asset: { score: 0.9, ...record() }, score: 0.25 };
    const plain = { asset: record({ id: "example:2" }), score: 0.1 };
    const answer: SearchAnswer = { query: "q", types: ["model"], results: [own, plain], providers: [] };
    const written = searchJson(answer).toString("utf8");
    expect(written).toBe(JSON.stringify(asResponse(answer)));
    expect(Object.keys(JSON.parse(written).results[0])[0]).toBe("score");
    expect(JSON.parse(written).results[0].score).toBe(0.25);
  });

  it("leaves out undefined fields and writes an empty page", () => {
    const answer = { query: "nothing", types: undefined, results: [], providers: [], facets: undefined } as unknown as SearchAnswer;
    expect(searchJson(answer).toString("utf8")).toBe('{"query":"nothing","results":[],"providers":[]}');
  });
});
