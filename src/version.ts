/**
 * edgectl's version, as package.json says: build.mjs writes it into the bundle (esbuild's `define`),
 * and a run from the sources (tsx, vitest) reads the file.
 */
import * as fs from "node:fs"

declare const EDGECTL_VERSION: string | undefined

export const version = (): string =>
  typeof EDGECTL_VERSION === "string"
    ? EDGECTL_VERSION
    : (JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version
