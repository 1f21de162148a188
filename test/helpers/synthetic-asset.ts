import type { Asset } from "../../core/schemas/index.ts";

/** A synthetic asset for ranking and de-duplication tests: the required fields, plus `extra`. */
export const syntheticAsset = (provider: string, slug: string, extra: Partial<Asset> = {}): Asset => ({
  id: `${provider}:${slug}`,
  provider,
  nativeId: slug,
  title: slug,
  type: "model",
  tags: [],
  url: `https://${provider}.example/${slug}`,
  downloadable: false,
  ...extra,
});
