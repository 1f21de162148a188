/**
 * Loaded into the fuzzed server only (test/fuzz/run.ts starts it with `--expose-gc --import` this
 * file): on SIGUSR2 it runs a full garbage collection and prints the RSS after it, so the suite
 * compares memory that is still held, not garbage a busy machine has not collected yet.
 */
process.on("SIGUSR2", () => {
  (globalThis as { gc?: () => void }).gc?.();
  process.stderr.write(`fuzz-gc rss=${process.memoryUsage.rss()}\n`);
});
