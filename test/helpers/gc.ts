import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** V8's full collection, exposed at run time as `node --expose-gc` would, to force one mid-request. */
export function exposedGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
