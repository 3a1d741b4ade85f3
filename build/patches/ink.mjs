// Ink 6.8.0, patched for the bundle: the TUI drawn where `CI` is set, incremental frames at the right
// line, and (in the CommonJS script only) no top-level await. Each names the version it was written
// for; build/patch.mjs stops the build on another one.
import { fileURLToPath } from "node:url"
import { packageStub, sourcePatch } from "../patch.mjs"

const frameDiffPath = fileURLToPath(new URL("../../tui/frame-diff.ts", import.meta.url))

const INK = "6.8.0"

/**
 * Ink's incremental rendering (the TUI's default), in Ink's log-update:
 * - Ink moved the cursor up one line too few when the last frame ended with a newline, which Ink
 *   adds to every frame shorter than the terminal (the TUI's frame is one row short): each frame
 *   was drawn one line lower. The cursor then sits below the frame's last line, so it goes up the
 *   frame's full height.
 * - A frame as tall as the last one, all on the terminal, is written by tui/frame-diff.ts: rows
 *   that scrolled together moved on the terminal, and of each changed line only its changed part.
 *   Ink rewrote each changed line whole, and a list scrolled by one row changes every row: a cursor
 *   move on the DNS list wrote 3.3 KB at 120x40.
 * - After a frame taller than the terminal (as for a moment after it shrinks), Ink clears the screen
 *   and draws the frame without the newline it then records as drawn: the next frame, placed from
 *   where the cursor should be, was drawn a line off. It is drawn with its newline.
 */
export const inkIncrementalFrames = sourcePatch({
  patch: "ink-incremental-frames",
  name: "ink",
  version: INK,
  files: {
    "build/log-update.js": [
      [
        "import ansiEscapes from 'ansi-escapes';",
        `import ansiEscapes from 'ansi-escapes';\nimport stringWidth from 'string-width';\nimport { frameDiff } from ${JSON.stringify(frameDiffPath)};`
      ],
      [
        "buffer.push(ansiEscapes.cursorUp(previousVisible - 1));",
        "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));"
      ],
      [
        "        const hasTrailingNewline = str.endsWith('\\n');\n",
        `        const hasTrailingNewline = str.endsWith('\\n');
        if (visibleCount === previousVisible && hasTrailingNewline === previousOutput.endsWith('\\n') &&
            stream.rows > 0 && stream.columns > 0 && visibleCount + (hasTrailingNewline ? 1 : 0) <= stream.rows) {
            stream.write(returnPrefix + frameDiff(previousLines, nextLines, visibleCount, hasTrailingNewline, stream.columns, stringWidth) +
                buildCursorSuffix(visibleCount, activeCursor));
            cursorWasShown = activeCursor !== undefined;
            previousCursorPosition = activeCursor ? { ...activeCursor } : undefined;
            previousOutput = str;
            previousLines = nextLines;
            return true;
        }
`
      ]
    ],
    "build/ink.js": [
      [
        "this.options.stdout.write(ansiEscapes.clearTerminal + this.fullStaticOutput + output);",
        "this.options.stdout.write(ansiEscapes.clearTerminal + this.fullStaticOutput + outputToRender);"
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
