// What bench/objects-live.bench.mjs bundles to reach a running object host from a warm process: the
// CLI's own control client and id resolution, so its round trips are the ones the CLI makes.
export { callHost, findHost } from "../src/objects/control-client.js"
export { resolveId, objectDir } from "../src/objects/ids.js"
