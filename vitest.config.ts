import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/build.ts"],
    // Live tests hit the real sites and run only with LIVE=1 (they skip themselves otherwise).
    testTimeout: 20_000,
    pool: "forks",
    // Most of the slow files wait on child processes, browsers and sockets, so two run side by side even on two cores.
    maxWorkers: 2,
  },
});
