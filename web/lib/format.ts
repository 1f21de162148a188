/** How the app writes sizes, prices and licences; every view uses these, so a card and the asset view say the same thing. */
import type { Asset, License, Price } from "../../core/schemas/index.ts";

export function bytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(n / 1e3))} kB`;
}

/** "Free", "$17.00", "Paid" (no amount stated), or undefined when the source says nothing of the price. */
export function price(p: Price | undefined): string | undefined {
  if (!p) return undefined;
  if (p.free) return "Free";
  if (p.amount === undefined) return "Paid";
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: p.currency ?? "USD" }).format(p.amount);
  } catch {
    return `${p.amount} ${p.currency ?? ""}`.trim();
  }
}

/** The badge of a licence: its short name and the class that colours it (cc0, credit, restricted). */
export function licenceBadge(l: License | undefined): { label: string; kind: "cc0" | "credit" | "restricted" | "unknown" } {
  if (!l) return { label: "Licence not stated", kind: "unknown" };
  const label = l.spdx ?? l.name;
  if (l.commercialUse === false) return { label, kind: "restricted" };
  if (l.attributionRequired) return { label, kind: "credit" };
  if (l.spdx === "CC0-1.0" || l.attributionRequired === false) return { label, kind: "cc0" };
  return { label, kind: "unknown" };
}

/** The licence's facts in words, for the asset view. */
export function licenceFacts(l: License | undefined): string[] {
  if (!l) return ["The source states no licence: check its page before use."];
  return [
    l.commercialUse === true ? "Commercial use allowed" : l.commercialUse === false ? "No commercial use" : "Commercial use not stated",
    l.attributionRequired === true ? "Credit required" : l.attributionRequired === false ? "No credit required" : "Credit not stated",
  ];
}

/** Addresses from the source sites become links only when they are http(s), never javascript: or data:. */
export const webUrl = (url: string | undefined): string | undefined => (url && /^https?:\/\//i.test(url) ? url : undefined);

/** The app's own address of an asset's thumbnail, resized by the server (never the source's host). */
export const thumbnailSrc = (a: Pick<Asset, "id">, width: 160 | 320 | 640 = 320): string => `/v1/assets/${encodeURIComponent(a.id)}/thumbnail?w=${width}`;
