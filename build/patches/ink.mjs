// Ink 6.8.0, patched for the bundle: the TUI drawn where `CI` is set, incremental frames at the right
// line, and (in the CommonJS script only) no top-level await. Each names the version it was written
// for; build/patch.mjs stops the build on another one.
import { packageStub, sourcePatch } from "../patch.mjs"

const INK = "6.8.0"

/**
 * Ink's incremental rendering (the TUI's default: only changed lines are written) moved the cursor
 * up one line too few when the last frame ended with a newline, which Ink adds to every frame
 * shorter than the terminal (the TUI's frame is one row short): each frame was drawn one line
 * lower. The cursor then sits below the frame's last line, so it goes up the frame's full height.
 */
export const inkIncrementalAfterNewline = sourcePatch({
  patch: "ink-incremental-after-newline",
  name: "ink",
  version: INK,
  files: {
    "build/log-update.js": [
      [
        "buffer.push(ansiEscapes.cursorUp(previousVisible - 1));",
        "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));"
      ]
    ]
  }
})

/**
 * Ink drawn on the terminal even where `CI` is set. Ink reads is-in-ci once at load and, in CI,
 * writes nothing until the app exits (the last frame only): a TUI opened in a terminal of a CI
 * runner, or by a user whose shell exports CI=true, stayed blank. edgectl opens the TUI only when
 * stdin and stdout are terminals (src/cli/commands/tui.ts), so the question is answered already.
 * Only Ink's two importers get `false`: any other importer of is-in-ci stops the build.
 */
export const inkOnTerminalInCi = packageStub({
  patch: "ink-on-terminal-in-ci",
  stubbed: "is-in-ci",
  importers: { ink: [INK, ["build/ink.js", "build/write-synchronized.js"]] },
  contents: () => "export default false\n"
})

/**
 * Ink's reconciler without top-level await, for the CommonJS script (a script cannot await at its
 * top level): it neither waits for React devtools (stubbed in this build; DEV=true) nor reads the
 * package.json they show. yoga-layout's half is in yoga-layout.mjs.
 */
export const inkReconcilerWithoutTopLevelAwait = sourcePatch({
  patch: "ink-without-top-level-await",
  name: "ink",
  version: INK,
  files: {
    "build/reconciler.js": [
      [
        "const packageJson = isDev()\n    ? await loadPackageJson()\n    : { name: undefined, version: undefined };",
        "const packageJson = { name: undefined, version: undefined };"
      ],
      ["        await import('./devtools.js');", "        import('./devtools.js').catch(() => {});"]
    ]
  }
})
