/** GET /v1/licenses: the licences the service knows, counted over the recorded index. */
import { describe, expect, it } from "vitest";
import { licenseKey } from "../core/model/license.ts";
import { LicensesResponse } from "../core/schemas/index.ts";
import { testApp } from "./helpers/app.ts";

describe("GET /v1/licenses", () => {
  it("lists every known licence with its family, terms and the indexed assets that carry it", async () => {
    const { get, published } = await testApp();
    const res = await get("/v1/licenses");
    expect(res.status).toBe(200);
    const { licenses } = LicensesResponse.parse(await res.json());
    const byId = new Map(licenses.map((l) => [l.id, l]));
    expect(byId.get("CC0-1.0")).toMatchObject({
      family: "cc0",
      spdx: "CC0-1.0",
      name: "CC0 1.0 Universal (public domain dedication)",
      url: "https://creativecommons.org/publicdomain/zero/1.0/",
      commercialUse: true,
      attributionRequired: false,
    });
    expect(byId.get("CC-BY-SA-4.0")?.family).toBe("cc-by-sa");
    expect(byId.get("OFL-1.1")?.family).toBe("ofl");
    expect(byId.get("GPL-3.0")).toMatchObject({ family: "gpl", spdx: "GPL-3.0-only" });
    expect(byId.get("OGA-BY-3.0")).toMatchObject({ family: "oga-by", attributionRequired: true });
    expect(byId.get("OGA-BY-3.0")).not.toHaveProperty("spdx");

    // The counts are the index's own, licence by licence.
    const assets = [...published.index.records()];
    for (const l of licenses) expect(l.indexedAssets, l.id).toBe(assets.filter((a) => a.license && licenseKey(a.license) === licenseKey(l)).length);
    expect(byId.get("CC0-1.0")?.indexedAssets).toBeGreaterThan(100);
    expect(byId.get("OFL-1.1")?.indexedAssets).toBeGreaterThan(100);
  });

  it("is rate-limited like every /v1 route, and answers other methods with a 405 naming the method", async () => {
    const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "7" } });
    expect((await get("/v1/licenses")).headers.get("ratelimit-limit")).toBe("7");
    const res = await get("/v1/licenses", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toEqual({ error: "method DELETE not allowed on /v1/licenses" });
  });
});
