/**
 * The pipeline's publish step in a process of its own, for test/publish-crash.test.ts to kill:
 * publishes the set files of folder argv[3] (built at argv[4]) into the DATA_DIR of argv[2].
 * Prints "publishing" once the inputs are read and "published <set>" when done.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PUBLISHED_FILES } from "../../core/publication/published.ts";
import { publishSet } from "../../pipeline/publish.ts";

const [dataDir, prepared, builtAt] = process.argv.slice(2) as [string, string, string];
const read = (file: string) => readFileSync(join(prepared, file));
const contents = { index: read(PUBLISHED_FILES.index), catalog: read(PUBLISHED_FILES.catalog), history: read(PUBLISHED_FILES.history) };
console.log("publishing");
console.log(`published ${publishSet(dataDir, contents, builtAt)}`);
