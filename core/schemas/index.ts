export * from "./asset.ts";
export * from "./provider.ts";
export * from "./search.ts";
export * from "./catalog.ts";
export * from "./stats.ts";
export * from "./error.ts";
export * from "./query.ts";
