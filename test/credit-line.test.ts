/** The asset view's credit line (web/asset/credit-text.ts) in its three forms, for the licences and gaps the sources give. */
import { describe, expect, it } from "vitest";
import type { Asset } from "../core/schemas/index.ts";
import { creditLine, licenceName } from "../web/asset/credit-text.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const CC_BY = { name: "Creative Commons Attribution 4.0", url: "https://creativecommons.org/licenses/by/4.0/", spdx: "CC-BY-4.0", attributionRequired: true };
const SOURCE = { name: "Open Game Art", homepage: "https://opengameart.org/" };
const rock: Asset = syntheticAsset("opengameart", "rock", { title: "Mossy Rock", author: "Ana", url: "https://opengameart.org/content/rock", license: CC_BY });

describe("creditLine", () => {
  it("writes Title, Author, Source and Licence with every address written out in plain text", () => {
    expect(creditLine(rock, SOURCE, "text")).toBe(
      '"Mossy Rock" by Ana on Open Game Art (https://opengameart.org/content/rock) is licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).',
    );
  });

  it("links the title to the asset, the source to its site and the licence to its text in HTML and Markdown", () => {
    expect(creditLine(rock, SOURCE, "html")).toBe(
      '<a href="https://opengameart.org/content/rock">Mossy Rock</a> by Ana on <a href="https://opengameart.org/">Open Game Art</a> is licensed under <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.',
    );
    expect(creditLine(rock, SOURCE, "markdown")).toBe(
      "[Mossy Rock](https://opengameart.org/content/rock) by Ana on [Open Game Art](https://opengameart.org/) is licensed under [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/).",
    );
  });

  it("escapes what HTML and Markdown would read as markup", () => {
    const odd = { ...rock, title: 'Rock <b>"big"</b> [v2] & *moss*', url: "https://opengameart.org/content/rock_(big)" };
    expect(creditLine(odd, SOURCE, "html")).toContain(
      '<a href="https://opengameart.org/content/rock_(big)">Rock &lt;b&gt;&quot;big&quot;&lt;/b&gt; [v2] &amp; *moss*</a>',
    );
    expect(creditLine(odd, SOURCE, "markdown")).toMatch(
      /^\[Rock \\<b\\>"big"\\<\/b\\> \\\[v2\\\] & \\\*moss\\\*\]\(https:\/\/opengameart\.org\/content\/rock_%28big%29\)/,
    );
  });

  it("says a public-domain dedication marks the asset, and says so when no licence or author is stated", () => {
    const cc0 = { ...rock, license: { name: "CC0 1.0 Universal", url: "https://creativecommons.org/publicdomain/zero/1.0/", spdx: "CC0-1.0" } };
    expect(creditLine(cc0, SOURCE, "text")).toContain("is marked with CC0 1.0 (https://creativecommons.org/publicdomain/zero/1.0/).");
    const { author: _author, license: _license, ...bare } = rock;
    expect(creditLine(bare, SOURCE, "text")).toBe('"Mossy Rock" on Open Game Art (https://opengameart.org/content/rock). The source states no licence.');
  });

  it("never turns an address that is not http(s) into a link", () => {
    const sly = { ...rock, license: { ...CC_BY, url: "javascript:alert(1)" } };
    expect(creditLine(sly, SOURCE, "html")).toContain("is licensed under CC BY 4.0.");
  });
});

describe("licenceName", () => {
  it("names Creative Commons licences as their deeds do and others by their own name", () => {
    expect(licenceName({ name: "x", spdx: "CC-BY-NC-SA-4.0" })).toBe("CC BY-NC-SA 4.0");
    expect(licenceName({ name: "x", spdx: "CC0-1.0" })).toBe("CC0 1.0");
    expect(licenceName({ name: "SIL Open Font License 1.1", spdx: "OFL-1.1" })).toBe("SIL Open Font License 1.1");
  });
});
