/**
 * better-sqlite3 is a native module built for one Node ABI: after switching Node (a version
 * manager), loading it fails with "Module did not self-register" or a NODE_MODULE_VERSION
 * mismatch, which say nothing about the fix. This names both Node versions and the command.
 */
import * as fs from "node:fs"

/** NODE_MODULE_VERSION → Node major (nodejs.org/dist/index.json, `modules`). */
const NodeOfAbi: Readonly<Record<number, string>> = {
  83: "14",
  88: "15",
  93: "16",
  102: "17",
  108: "18",
  111: "19",
  115: "20",
  120: "21",
  127: "22",
  131: "23",
  137: "24",
  141: "25"
}

const nodeOf = (abi: number) => (NodeOfAbi[abi] !== undefined ? `Node ${NodeOfAbi[abi]}` : "another Node")

/** The ABI a non-N-API addon was built for: its exported `node_register_module_v<ABI>` symbol. */
export const abiOfAddon = (file: string): number | undefined => {
  try {
    const m = /node_register_module_v(\d+)/.exec(fs.readFileSync(file).toString("latin1"))
    return m ? Number(m[1]) : undefined
  } catch {
    return undefined
  }
}

/**
 * What a failure to load the native module means, or undefined when `e` is another failure.
 * `abi` reads the ABI a module file was built for (a parameter for tests).
 */
export const nativeModuleProblem = (
  e: unknown,
  abi: (file: string) => number | undefined = abiOfAddon
): string | undefined => {
  const message = e instanceof Error ? e.message : String(e)
  const here = `this is Node ${process.versions.node} (NODE_MODULE_VERSION ${process.versions.modules})`
  const mismatch = /compiled against a different Node\.js version using\s+NODE_MODULE_VERSION (\d+)/.exec(message)
  if (mismatch) {
    const built = Number(mismatch[1])
    return `the native SQLite module (better-sqlite3) was built for ${nodeOf(built)} (NODE_MODULE_VERSION ${built}), ${here}`
  }
  const unregistered = /Module did not self-register(?::\s*'([^']+)')?/.exec(message)
  if (unregistered) {
    const built = unregistered[1] !== undefined ? abi(unregistered[1]) : undefined
    const was =
      built !== undefined
        ? `was built for ${nodeOf(built)} (NODE_MODULE_VERSION ${built})`
        : "was built for another Node"
    return `the native SQLite module (better-sqlite3) ${was}, ${here}`
  }
  return undefined
}
