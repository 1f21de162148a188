/**
 * A failing or silent source, the same on every surface: one mapping from the kinds of SourceError
 * (core/model/source-error.ts) to an HTTP status and sentence that MCP repeats (server/errors.ts),
 * and one deadline for an asset's details (DETAILS_DEADLINE_MS) on HTTP and MCP alike. The
 * deadline is short and the source never answers, so no test waits on the clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../core/http/types.ts";
import type { SourceContext } from "../core/model/source.ts";
import { SourceError, type SourceErrorKind } from "../core/model/source-error.ts";
import { ErrorBody } from "../core/schemas/index.ts";
import { sourceFailure } from "../server/errors.ts";
import { mcpClient, toolErrorText } from "./helpers/mcp-client.ts";
import { oneAssetApp, syntheticDetails } from "./helpers/one-asset.ts";

const closes: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closes.splice(0).map((close) => close()));
});

const LAMP = syntheticDetails("flaky", "lamp");

describe("a source's failure", () => {
  const FAILING = ". The source site is failing right now: try again later, or send the user to the asset's page.";
  const SLOW = ". The source site is slow right now: try again later, or send the user to the asset's page.";
  it.each<[SourceErrorKind, number, string, string]>([
    ["http", 502, "the source site failed", FAILING],
    ["shape", 502, "the source site failed", FAILING],
    ["refused", 502, "the source site failed", FAILING],
    ["timeout", 504, "the source site did not answer in time", SLOW],
    ["config", 503, "the source is not configured on this server", ""],
  ])("of kind %s is a %i on HTTP, and the same words in MCP", async (kind, status, says, hint) => {
    const getAsset = async () => {
      throw new SourceError("flaky", kind, "https://flaky.example/lamp answered HTTP 500");
    };
    const app = oneAssetApp(LAMP, { source: { getAsset } });
    const error = `${says}: flaky: https://flaky.example/lamp answered HTTP 500`;
    for (const path of ["", "/files", "/download"]) {
      const res = await app.get(`/v1/assets/flaky:lamp${path}`);
      expect(res.status, path).toBe(status);
      expect(await res.json(), path).toEqual({ error });
    }
    const mcp = await mcpClient(app.app);
    closes.push(mcp.close);
    expect(toolErrorText(await mcp.call("get_asset", { id: "flaky:lamp" }))).toBe(`${error}${hint}`);
  });

  it("reads an upstream request's failure by the same table", () => {
    const timedOut = sourceFailure(new UpstreamError("https://files.example/a.jpg timed out", "https://files.example/a.jpg", "timeout"));
    expect([timedOut.status, timedOut.message]).toEqual([504, "the source site did not answer in time: https://files.example/a.jpg timed out"]);
    const refused = sourceFailure(new UpstreamError("127.0.0.1 is a loopback address", "http://127.0.0.1/", "blocked"));
    expect([refused.status, refused.message]).toEqual([502, "the source site failed: 127.0.0.1 is a loopback address"]);
  });
});

describe("a source that never answers", () => {
  /** The lamp's source, silent for ever whatever its signal says; `signals` are those it was given. */
  function silent() {
    const signals: AbortSignal[] = [];
    const getAsset = (_id: string, ctx: SourceContext) => {
      if (ctx.signal) signals.push(ctx.signal);
      return new Promise<never>(() => {});
    };
    return { signals, ...oneAssetApp(syntheticDetails("silent", "lamp"), { env: { DETAILS_DEADLINE_MS: "20" }, source: { getAsset } }) };
  }
  const LATE = "the source site did not answer in time: silent: no answer within 20 ms";

  it("is a 504 past DETAILS_DEADLINE_MS on the asset, its files and its download, and its request is given up", async () => {
    const { get, signals } = silent();
    for (const path of ["", "/files", "/download", "/raw/lamp.glb"]) {
      const res = await get(`/v1/assets/silent:lamp${path}`);
      expect(res.status, path).toBe(504);
      expect(ErrorBody.parse(await res.json()), path).toEqual({ error: LATE });
    }
    expect(signals).toHaveLength(4);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it("is a 504 on /v1/credits and /v1/download too", async () => {
    const { get } = silent();
    for (const path of ["/v1/credits?ids=silent:lamp", "/v1/download?ids=silent:lamp"]) {
      const res = await get(path);
      expect(res.status, path).toBe(504);
      expect(ErrorBody.parse(await res.json()), path).toEqual({ error: LATE });
    }
  });

  it("is get_asset's and get_credits' error past the same deadline, in the same words", async () => {
    const { app } = silent();
    const mcp = await mcpClient(app);
    closes.push(mcp.close);
    const slow = "The source site is slow right now: try again later, or send the user to the asset's page.";
    expect(toolErrorText(await mcp.call("get_asset", { id: "silent:lamp" }))).toBe(`${LATE}. ${slow}`);
    expect(toolErrorText(await mcp.call("get_credits", { ids: ["silent:lamp"] }))).toBe(`${LATE}. ${slow}`);
  });
});
