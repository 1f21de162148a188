import type { License } from "../schemas/index.ts";

/** Known licences, keyed by SPDX id (or our own id where SPDX has none, and then without `spdx`). */
export const LICENSES = {
  "CC0-1.0": {
    name: "CC0 1.0 Universal (public domain dedication)",
    url: "https://creativecommons.org/publicdomain/zero/1.0/",
    commercialUse: true,
    attributionRequired: false,
    spdx: "CC0-1.0",
  },
  "CC-BY-4.0": {
    name: "Creative Commons Attribution 4.0",
    url: "https://creativecommons.org/licenses/by/4.0/",
    commercialUse: true,
    attributionRequired: true,
    spdx: "CC-BY-4.0",
  },
  "CC-BY-3.0": {
    name: "Creative Commons Attribution 3.0",
    url: "https://creativecommons.org/licenses/by/3.0/",
    commercialUse: true,
    attributionRequired: true,
    spdx: "CC-BY-3.0",
  },
  "CC-BY-SA-4.0": {
    name: "Creative Commons Attribution-ShareAlike 4.0",
    url: "https://creativecommons.org/licenses/by-sa/4.0/",
    commercialUse: true,
    attributionRequired: true,
    spdx: "CC-BY-SA-4.0",
  },
  "CC-BY-SA-3.0": {
    name: "Creative Commons Attribution-ShareAlike 3.0",
    url: "https://creativecommons.org/licenses/by-sa/3.0/",
    commercialUse: true,
    attributionRequired: true,
    spdx: "CC-BY-SA-3.0",
  },
  "CC-BY-NC-4.0": {
    name: "Creative Commons Attribution-NonCommercial 4.0",
    url: "https://creativecommons.org/licenses/by-nc/4.0/",
    commercialUse: false,
    attributionRequired: true,
    spdx: "CC-BY-NC-4.0",
  },
  "CC-BY-NC-SA-4.0": {
    name: "Creative Commons Attribution-NonCommercial-ShareAlike 4.0",
    url: "https://creativecommons.org/licenses/by-nc-sa/4.0/",
    commercialUse: false,
    attributionRequired: true,
    spdx: "CC-BY-NC-SA-4.0",
  },
  "CC-BY-ND-4.0": {
    name: "Creative Commons Attribution-NoDerivatives 4.0",
    url: "https://creativecommons.org/licenses/by-nd/4.0/",
    commercialUse: true,
    attributionRequired: true,
    spdx: "CC-BY-ND-4.0",
  },
  "CC-BY-NC-ND-4.0": {
    name: "Creative Commons Attribution-NonCommercial-NoDerivatives 4.0",
    url: "https://creativecommons.org/licenses/by-nc-nd/4.0/",
    commercialUse: false,
    attributionRequired: true,
    spdx: "CC-BY-NC-ND-4.0",
  },
  "OFL-1.1": {
    name: "SIL Open Font License 1.1",
    url: "https://openfontlicense.org/",
    commercialUse: true,
    attributionRequired: false,
    spdx: "OFL-1.1",
  },
  "Apache-2.0": {
    name: "Apache License 2.0",
    url: "https://www.apache.org/licenses/LICENSE-2.0",
    commercialUse: true,
    attributionRequired: true,
    spdx: "Apache-2.0",
  },
  MIT: {
    name: "MIT License",
    url: "https://opensource.org/license/mit",
    commercialUse: true,
    attributionRequired: true,
    spdx: "MIT",
  },
  "GPL-3.0": {
    name: "GNU General Public License 3.0",
    url: "https://www.gnu.org/licenses/gpl-3.0.html",
    commercialUse: true,
    attributionRequired: true,
    spdx: "GPL-3.0-only",
  },
  "GPL-2.0": {
    name: "GNU General Public License 2.0",
    url: "https://www.gnu.org/licenses/old-licenses/gpl-2.0.html",
    commercialUse: true,
    attributionRequired: true,
    spdx: "GPL-2.0-only",
  },
  "LGPL-3.0": {
    name: "GNU Lesser General Public License 3.0",
    url: "https://www.gnu.org/licenses/lgpl-3.0.html",
    commercialUse: true,
    attributionRequired: true,
    spdx: "LGPL-3.0-only",
  },
  "LGPL-2.1": {
    name: "GNU Lesser General Public License 2.1",
    url: "https://www.gnu.org/licenses/old-licenses/lgpl-2.1.html",
    commercialUse: true,
    attributionRequired: true,
    spdx: "LGPL-2.1-only",
  },
  // OpenGameArt's own attribution licences have no SPDX id.
  "OGA-BY-3.0": {
    name: "OpenGameArt Attribution 3.0 (OGA-BY 3.0)",
    url: "https://opengameart.org/content/oga-by-30-faq",
    commercialUse: true,
    attributionRequired: true,
  },
  "OGA-BY-4.0": {
    name: "OpenGameArt Attribution 4.0 (OGA-BY 4.0)",
    url: "https://opengameart.org/content/oga-by-40",
    commercialUse: true,
    attributionRequired: true,
  },
} as const satisfies Record<string, License>;

/** The key a licence is counted under in a census: its SPDX id, else its name. */
export const licenseKey = (l: License): string => l.spdx ?? l.name;

export type LicenseId = keyof typeof LICENSES;

export function licenseById(id: LicenseId): License {
  return { ...LICENSES[id] };
}

// Creative Commons licences of any version, and SPDX ids as APIs give them. Older versions
// (`by-nc/3.0`, `by-sa/2.5` …) keep their version; the permission flags of a Creative Commons
// licence do not depend on it. A licence we do not know keeps its name (and its SPDX id when the
// API gives one) without flags: it is never treated as free to use.
const withUrl = (license: License, url: string | undefined): License => (url && /^https?:\/\//.test(url) ? { ...license, url } : license);

const CC_NAMES: Record<string, string> = {
  by: "Attribution",
  "by-sa": "Attribution-ShareAlike",
  "by-nd": "Attribution-NoDerivatives",
  "by-nc": "Attribution-NonCommercial",
  "by-nc-sa": "Attribution-NonCommercial-ShareAlike",
  "by-nc-nd": "Attribution-NonCommercial-NoDerivatives",
};

/** Our table's entry whose key or SPDX id is `spdx` (case-insensitive). */
function known(spdx: string): LicenseId | undefined {
  const want = spdx.trim().toLowerCase();
  return (Object.keys(LICENSES) as LicenseId[]).find((id) => {
    const spdx = (LICENSES[id] as License).spdx?.toLowerCase();
    // Keys of licences without an SPDX id are our own names, not SPDX ids: match those by SPDX only.
    return spdx !== undefined && (spdx === want || id.toLowerCase() === want);
  });
}

/**
 * A Creative Commons licence from its short code (`cc0`, `pdm`, `by`, `by-nc-sa`, `sampling+` …)
 * and version (`3.0`). Undefined when the code is not a Creative Commons one.
 */
export function ccLicense(code: string, version?: string | null, url?: string | null): License | undefined {
  const c = code.trim().toLowerCase().replace(/_/g, "-");
  const v = version?.trim() || undefined;
  const link = url ?? undefined;
  if (c === "cc0" || c === "zero") return withUrl(licenseById("CC0-1.0"), link);
  if (c === "pdm" || c === "mark") {
    return withUrl(
      {
        name: "Public Domain Mark 1.0",
        url: "https://creativecommons.org/publicdomain/mark/1.0/",
        commercialUse: true,
        attributionRequired: false,
        spdx: "CC-PDM-1.0",
      },
      link,
    );
  }
  if (c === "sampling+" || c === "nc-sampling+") {
    // Sampling Plus (retired by Creative Commons): attribution always; the non-commercial variant
    // forbids commercial use; plain Sampling+ allows some commercial uses only, so no flag is claimed.
    const nc = c.startsWith("nc-");
    return {
      name: `Creative Commons ${nc ? "NonCommercial " : ""}Sampling Plus${v ? ` ${v}` : ""}`,
      ...(link ? { url: link } : {}),
      ...(nc ? { commercialUse: false } : {}),
      attributionRequired: true,
    };
  }
  const family = CC_NAMES[c];
  if (!family) return undefined;
  const flags = { commercialUse: !c.includes("nc"), attributionRequired: true };
  if (!v) {
    // Version unknown: the flags are certain, an SPDX id is not.
    return { name: `Creative Commons ${family}`, ...(link ? { url: link } : {}), ...flags };
  }
  const spdx = `CC-${c.toUpperCase()}-${v}`;
  const id = known(spdx);
  if (id) return withUrl(licenseById(id), link);
  return {
    name: `Creative Commons ${family} ${v}`,
    url: link ?? `https://creativecommons.org/licenses/${c}/${v}/`,
    ...flags,
    spdx,
  };
}

/** A licence from a Creative Commons deed URL (`http://creativecommons.org/licenses/by-nc/3.0/`). */
export function ccLicenseFromUrl(url: string): License | undefined {
  const m = /creativecommons\.org\/(?:licenses|publicdomain)\/([a-z+-]+)\/(\d+(?:\.\d+)?)/i.exec(url);
  if (!m) return undefined;
  return ccLicense(m[1]!, m[2], url.replace(/^http:\/\//i, "https://"));
}

/**
 * A licence from an SPDX id as an API gives it (`OFL-1.1`, `mit`, `CC-BY-3.0`, `GPL-2.0-or-later`).
 * `name` and `url` are the API's own title and link for it, when it has them.
 */
export function licenseFromSpdx(spdx: string, name?: string, url?: string): License {
  const id = known(spdx);
  if (id) return withUrl(licenseById(id), url);
  const cc = /^CC-(BY(?:-NC)?(?:-SA|-ND)?)-(\d\.\d)$/i.exec(spdx.trim());
  if (cc) return withUrl(ccLicense(cc[1]!, cc[2])!, url);
  return { name: name?.trim() || spdx.trim(), ...(url && /^https?:\/\//.test(url) ? { url } : {}), spdx: spdx.trim() };
}

/** A Creative Commons code with an explicit version in free text: "CC-BY 3.0", "cc by-nc-sa 2.5". */
const CC_VERSIONED = /\bcc[-_ ]?(by(?:[-_ ](?:nc|nd|sa)){0,2})[-_ /]*v?(\d\.\d)\b/i;

/** Patterns of licence names and URLs as sites write them, most specific first. */
const PATTERNS: Array<[RegExp, LicenseId]> = [
  [/cc0|public ?domain|publicdomain\/zero|creative commons zero/i, "CC0-1.0"],
  [/by[-_ ]?nc[-_ ]?nd|attribution[- ]noncommercial[- ]noderiv/i, "CC-BY-NC-ND-4.0"],
  [/by[-_ ]?nc[-_ ]?sa|attribution[- ]noncommercial[- ]sharealike/i, "CC-BY-NC-SA-4.0"],
  [/by[-_ ]?nc\b|by-nc\/|attribution[- ]noncommercial/i, "CC-BY-NC-4.0"],
  [/by[-_ ]?nd\b|by-nd\/|attribution[- ]noderiv/i, "CC-BY-ND-4.0"],
  [/by[-_ ]?sa[-_ /]*3|attribution[- ]sharealike 3/i, "CC-BY-SA-3.0"],
  [/by[-_ ]?sa\b|by-sa\/|attribution[- ]sharealike/i, "CC-BY-SA-4.0"],
  [/oga[-_ ]?by[-_ ]?4/i, "OGA-BY-4.0"],
  [/oga[-_ ]?by/i, "OGA-BY-3.0"],
  [/cc[-_ ]?by[-_ /]*3|by\/3\.0|attribution 3/i, "CC-BY-3.0"],
  [/cc[-_ ]?by|licenses\/by\/|creative commons attribution|^by$/i, "CC-BY-4.0"],
  [/\bofl\b|open font licen[cs]e/i, "OFL-1.1"],
  [/apache/i, "Apache-2.0"],
  [/\bmit\b/i, "MIT"],
  [/lgpl[-_ ]?v?3/i, "LGPL-3.0"],
  [/lgpl[-_ ]?v?2/i, "LGPL-2.1"],
  [/gpl[-_ ]?3|gpl v?3/i, "GPL-3.0"],
  [/gpl[-_ ]?2|gpl v?2/i, "GPL-2.0"],
];

/**
 * Normalises a licence as a site writes it (a name, a slug or a URL). An unknown licence keeps
 * its own name and is never treated as free for commercial use: the flags are left unset.
 */
export function normalizeLicense(raw: string | undefined | null, url?: string): License | undefined {
  const text = `${raw ?? ""} ${url ?? ""}`.trim();
  if (!text) return undefined;
  const fromUrl = url ? ccLicenseFromUrl(url) : undefined;
  if (fromUrl) return fromUrl;
  const versioned = CC_VERSIONED.exec(raw ?? "");
  if (versioned) return withUrl(ccLicense(versioned[1]!.replace(/[_ ]/g, "-"), versioned[2])!, url);
  for (const [pattern, id] of PATTERNS) {
    if (pattern.test(text)) {
      return withUrl(licenseById(id), url);
    }
  }
  return { name: (raw ?? url ?? "").trim(), ...(url && /^https?:\/\//.test(url) ? { url } : {}) };
}

/** A ready-to-paste credit line, or undefined when the licence asks for none. */
export function attributionLine(title: string, author: string | undefined, license: License | undefined, url: string): string | undefined {
  if (!license?.attributionRequired) return undefined;
  return `"${title}"${author ? ` by ${author}` : ""} (${url}), licensed under ${license.spdx ?? license.name}${license.url ? ` (${license.url})` : ""}.`;
}

/** A licence's family: its id without the version, lower case (CC-BY-SA-4.0 → cc-by-sa, CC0-1.0 → cc0). */
export const licenseFamily = (id: string): string => id.toLowerCase().replace(/-\d+(\.\d+)*(-only)?$/, "");
