import { describe, expect, it } from "vitest";
import { type SourceQuery, toProvider } from "../core/model/source.ts";
import { Provider } from "../core/schemas/index.ts";
import { poliigon } from "../sources/poliigon.ts";
import { sourceQuery } from "./helpers/query.ts";

const query = (over: Partial<SourceQuery> = {}) => sourceQuery("sci fi crate", over);

describe("poliigon (link only)", () => {
  it("builds the site's own search URL: text in the path, section and free filter", () => {
    expect(poliigon.searchUrl(query())).toBe("https://www.poliigon.com/search/sci%20fi%20crate");
    expect(poliigon.searchUrl(query({ free: true }))).toBe("https://www.poliigon.com/search/sci%20fi%20crate?is_free=true");
    expect(poliigon.searchUrl(query({ q: "oak", types: ["texture", "material"], free: true }))).toBe(
      "https://www.poliigon.com/search/oak?type=textures&is_free=true",
    );
    expect(poliigon.searchUrl(query({ q: "sofa", types: ["model"] }))).toBe("https://www.poliigon.com/search/sofa?type=models");
    expect(poliigon.searchUrl(query({ q: "sky", types: ["hdri"] }))).toBe("https://www.poliigon.com/search/sky?type=hdrs");
    expect(poliigon.searchUrl(query({ q: "sky", types: ["hdri", "model"] }))).toBe("https://www.poliigon.com/search/sky");
    expect(poliigon.searchUrl(query({ q: "", free: true }))).toBe("https://www.poliigon.com/search?is_free=true");
    expect(poliigon.searchUrl(query({ q: "a/b?c" }))).toBe("https://www.poliigon.com/search/a%2Fb%3Fc");
  });

  it("is never fetched: no search, crawl, getAsset or census", () => {
    for (const method of ["search", "crawl", "getAsset", "census"]) expect(poliigon).not.toHaveProperty(method);
  });

  it("describes itself as a link source without downloads", () => {
    expect(poliigon).toMatchObject({
      id: "poliigon",
      name: "Poliigon",
      homepage: "https://www.poliigon.com",
      access: "link",
      mode: "link",
      pricing: "freemium",
      supportsDownload: false,
      assetTypes: ["texture", "material", "model", "hdri"],
    });
    expect(poliigon.key).toBeUndefined();
    expect(Provider.parse(toProvider(poliigon, {}))).toMatchObject({ id: "poliigon", enabled: true, mode: "link" });
  });
  it("declares no filter or sort it can pass on, and its searchUrl ignores them", () => {
    expect(poliigon.filtering).toEqual({ upstream: [], listed: [] });
    const filtered = query({ filters: { license: ["cc0"], format: ["fbx"], commercial: true }, sort: "newest" });
    expect(poliigon.searchUrl(filtered)).toBe(poliigon.searchUrl(query()));
  });
});
