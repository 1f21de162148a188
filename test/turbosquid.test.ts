import { describe, expect, it } from "vitest";
import { type SourceQuery, toProvider } from "../core/model/source.ts";
import { Provider } from "../core/schemas/index.ts";
import { turbosquid } from "../sources/turbosquid.ts";
import { sourceQuery } from "./helpers/query.ts";

const query = (over: Partial<SourceQuery> = {}) => sourceQuery("sci fi crate", over);

describe("turbosquid (link only)", () => {
  it("builds the site's own search URL: keywords joined by hyphens in the path, free as a path segment", () => {
    expect(turbosquid.searchUrl(query())).toBe("https://www.turbosquid.com/Search/3D-Models/sci-fi-crate");
    expect(turbosquid.searchUrl(query({ free: true }))).toBe("https://www.turbosquid.com/Search/3D-Models/free/sci-fi-crate");
    expect(turbosquid.searchUrl(query({ q: "Sci-Fi  Crate!", types: ["model"], free: true }))).toBe(
      "https://www.turbosquid.com/Search/3D-Models/free/sci-fi-crate",
    );
    expect(turbosquid.searchUrl(query({ q: "café chair" }))).toBe("https://www.turbosquid.com/Search/3D-Models/caf%C3%A9-chair");
    expect(turbosquid.searchUrl(query({ q: "", free: true }))).toBe("https://www.turbosquid.com/Search/3D-Models/free");
    expect(turbosquid.searchUrl(query({ q: "" }))).toBe("https://www.turbosquid.com/Search/3D-Models");
  });

  it("is never fetched: no search, crawl, getAsset or census", () => {
    for (const method of ["search", "crawl", "getAsset", "census"]) expect(turbosquid).not.toHaveProperty(method);
  });

  it("describes itself as a link source of models without downloads", () => {
    expect(turbosquid).toMatchObject({
      id: "turbosquid",
      name: "TurboSquid",
      homepage: "https://www.turbosquid.com",
      access: "link",
      mode: "link",
      pricing: "freemium",
      supportsDownload: false,
      assetTypes: ["model"],
    });
    expect(turbosquid.key).toBeUndefined();
    expect(Provider.parse(toProvider(turbosquid, {}))).toMatchObject({ id: "turbosquid", enabled: true, mode: "link" });
  });
  it("declares no filter or sort it can pass on, and its searchUrl ignores them", () => {
    expect(turbosquid.filtering).toEqual({ upstream: [], listed: [] });
    const filtered = query({ filters: { license: ["cc0"], format: ["fbx"], commercial: true }, sort: "newest" });
    expect(turbosquid.searchUrl(filtered)).toBe(turbosquid.searchUrl(query()));
  });
});
