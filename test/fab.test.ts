import { describe, expect, it } from "vitest";
import { type SourceQuery, toProvider } from "../core/model/source.ts";
import { Provider } from "../core/schemas/index.ts";
import { fab } from "../sources/fab.ts";
import { sourceQuery } from "./helpers/query.ts";

const query = (over: Partial<SourceQuery> = {}) => sourceQuery("sci fi crate", over);

describe("fab (link only)", () => {
  it("builds the site's own search URL: text, free filter and listing type", () => {
    expect(fab.searchUrl(query())).toBe("https://www.fab.com/search?q=sci+fi+crate");
    expect(fab.searchUrl(query({ free: true }))).toBe("https://www.fab.com/search?q=sci+fi+crate&is_free=1");
    expect(fab.searchUrl(query({ types: ["model"], free: true }))).toBe("https://www.fab.com/search?q=sci+fi+crate&listing_types=3d-model&is_free=1");
    expect(fab.searchUrl(query({ q: "rusty metal", types: ["texture", "material"] }))).toBe("https://www.fab.com/search?q=rusty+metal&listing_types=material");
    // Types naming different Fab kinds (or none) leave the kind open.
    expect(fab.searchUrl(query({ types: ["model", "audio"] }))).toBe("https://www.fab.com/search?q=sci+fi+crate");
    expect(fab.searchUrl(query({ q: "  ", free: true }))).toBe("https://www.fab.com/search?is_free=1");
    expect(fab.searchUrl(query({ q: "a&b=c" }))).toBe("https://www.fab.com/search?q=a%26b%3Dc");
  });

  it("is never fetched: no search, crawl, getAsset or census", () => {
    for (const method of ["search", "crawl", "getAsset", "census"]) expect(fab).not.toHaveProperty(method);
  });

  it("describes itself as a link source without downloads", () => {
    expect(fab).toMatchObject({
      id: "fab",
      name: "Fab",
      homepage: "https://www.fab.com",
      access: "link",
      mode: "link",
      pricing: "freemium",
      supportsDownload: false,
    });
    expect(fab.key).toBeUndefined();
    expect(fab.license).toBeUndefined();
    expect(Provider.parse(toProvider(fab, {}))).toMatchObject({ id: "fab", enabled: true, mode: "link" });
  });
  it("declares no filter or sort it can pass on, and its searchUrl ignores them", () => {
    expect(fab.filtering).toEqual({ upstream: [], listed: [] });
    const filtered = query({ filters: { license: ["cc0"], format: ["fbx"], commercial: true }, sort: "newest" });
    expect(fab.searchUrl(filtered)).toBe(fab.searchUrl(query()));
  });
});
