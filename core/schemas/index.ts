export * from "./asset.ts";
export * from "./catalog.ts";
export * from "./error.ts";
export * from "./license.ts";
export * from "./provider.ts";
export * from "./query.ts";
export * from "./search.ts";
export * from "./stats.ts";
