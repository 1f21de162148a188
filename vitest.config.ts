import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/build.ts"],
    // Live tests hit the real sites and run only with LIVE=1 (they skip themselves otherwise).
    testTimeout: 20_000,
    pool: "forks",
  },
});
