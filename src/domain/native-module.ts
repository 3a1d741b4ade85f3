/**
 * A store that cannot load its native module (better-sqlite3 built for another Node) fails with a
 * message of src/store/native.ts; the CLI and the TUI recognise it here to hint the rebuild,
 * without loading the store.
 */

/** Recognises the message of `nativeModuleProblem` (src/store/native.ts) in an error that carries it. */
export const NativeModule = /the native SQLite module \(better-sqlite3\) was built for/
export const RebuildHint = "run `npm rebuild better-sqlite3` in edgectl's directory, with the Node you use now"
