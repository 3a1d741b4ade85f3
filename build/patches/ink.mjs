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
 * - A whole redraw asked for (ctrl+l, a resize: tui/frame-diff.ts's WholeRedraw) clears the screen
 *   and writes the frame from the top-left corner, even a frame that did not change.
 * - A frame's three writes (begin synchronized update, the frame, end it) go out as one: each
 *   write to a terminal is a system call, and three of them cost a cursor move more than the rest
 *   of its frame (node --cpu-prof: writeUtf8String ~2 ms of ~8 ms per j).
 */
export const inkIncrementalFrames = sourcePatch({
  patch: "ink-incremental-frames",
  name: "ink",
  version: INK,
  files: {
    "build/log-update.js": [
      [
        "import ansiEscapes from 'ansi-escapes';",
        `import ansiEscapes from 'ansi-escapes';\nimport stringWidth from 'string-width';\nimport { frameDiff, WholeRedraw } from ${JSON.stringify(frameDiffPath)};`
      ],
      [
        "        if (!hasChanges(str, activeCursor)) {\n            return false;\n        }\n        const nextLines = str.split('\\n');",
        `        if (WholeRedraw.pending) {
            WholeRedraw.pending = false;
            const wholeLines = str.split('\\n');
            stream.write('\\u001B[H\\u001B[2J' + str + buildCursorSuffix(visibleLineCount(wholeLines, str), activeCursor));
            cursorWasShown = activeCursor !== undefined;
            previousCursorPosition = activeCursor ? { ...activeCursor } : undefined;
            previousOutput = str;
            previousLines = wholeLines;
            return true;
        }
        if (!hasChanges(str, activeCursor)) {
            return false;
        }
        const nextLines = str.split('\\n');`
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
        "import { throttle } from 'es-toolkit/compat';",
        `import { throttle } from 'es-toolkit/compat';\nimport { WholeRedraw } from ${JSON.stringify(frameDiffPath)};`
      ],
      [
        "        else if (output !== this.lastOutput || this.log.isCursorDirty()) {",
        "        else if (output !== this.lastOutput || this.log.isCursorDirty() || WholeRedraw.pending) {"
      ],
      [
        "this.options.stdout.write(ansiEscapes.clearTerminal + this.fullStaticOutput + output);",
        "this.options.stdout.write(ansiEscapes.clearTerminal + this.fullStaticOutput + outputToRender);"
      ],
      [
        `                if (sync && shouldWrite) {
                    this.options.stdout.write(bsu);
                }
                this.log(output);
                if (sync && shouldWrite) {
                    this.options.stdout.write(esu);
                }
`,
        `                const corked = sync && shouldWrite && typeof this.options.stdout.cork === 'function';
                if (corked) {
                    this.options.stdout.cork();
                }
                if (sync && shouldWrite) {
                    this.options.stdout.write(bsu);
                }
                this.log(output);
                if (sync && shouldWrite) {
                    this.options.stdout.write(esu);
                }
                if (corked) {
                    this.options.stdout.uncork();
                }
`
      ]
    ]
  }
})

/** What output.js gets ahead of its class (see inkOutputGrid). */
const outputHelpers = `
const cacheLimit = 4096;
const blankStyles = [];
const blank = { type: 'char', value: ' ', fullWidth: false, styles: blankStyles };
/** A line's cells; consecutive cells in one style share its array. widths: undefined when all are 1. */
const styledLine = (line) => {
    let codes = blankStyles;
    const chars = [];
    let widths;
    for (const token of tokenize(line)) {
        if (token.type === 'ansi') {
            codes = reduceAnsiCodesIncremental(codes, [token]);
        }
        else if (token.type === 'char') {
            const width = token.value.length === 1 && narrow(token.value.charCodeAt(0)) ? 1 : Math.max(1, stringWidth(token.value));
            if (width !== 1 && widths === undefined) {
                widths = chars.map(() => 1);
            }
            widths?.push(width);
            chars.push({ ...token, styles: codes });
        }
    }
    return { chars, widths };
};
/** Whether two rows hold the same cells (cells are shared: blanks, and a cached line's characters). */
const sameCells = (a, b) => {
    if (a === undefined || a.length !== b.length) {
        return false;
    }
    for (let i = 0; i < a.length; i++) {
        if (a[i] !== b[i]) {
            return false;
        }
    }
    return true;
};
/** The last frame's rows and their text: a row seen there (at its place, or a row up or down) is not built again. */
let lastRows = [];
let lastTexts = [];
const rowTexts = (rows) => {
    const texts = rows.map((row, y) => {
        for (const at of [y, y + 1, y - 1]) {
            if (sameCells(lastRows[at], row)) {
                return lastTexts[at];
            }
        }
        return rowString(row).trimEnd();
    });
    lastRows = rows;
    lastTexts = texts;
    return texts;
};
/** styledCharsToString, comparing styles only where they change. */
const rowString = (row) => {
    let ret = '';
    let previous;
    for (const char of row) {
        if (char === undefined) {
            continue;
        }
        if (previous === undefined) {
            ret += ansiCodesToString(char.styles);
        }
        else if (char.styles !== previous.styles && (char.styles.length > 0 || previous.styles.length > 0)) {
            ret += ansiCodesToString(diffAnsiCodes(previous.styles, char.styles));
        }
        ret += char.value;
        previous = char;
    }
    if (previous !== undefined && previous.styles.length > 0) {
        ret += ansiCodesToString(diffAnsiCodes(previous.styles, []));
    }
    return ret;
};
`

/**
 * Ink's frame, as the grid of styled cells it builds and reads back as lines (output.js), cost most
 * of a key's CPU: ~9 ms of a cursor move's ~12 ms at 120x40 (node --cpu-prof). It started each frame
 * with new caches, so every line of every frame was tokenized again; it gave every blank cell and
 * every character an object and a style array of its own, and compared the styles of each pair of
 * neighbouring cells. Here, the same cells from less work: the caches live as long as the process
 * (bounded), blank cells are one object, a run of characters in one style shares its array (so
 * neighbours compare by identity), a one-column character's width is not looked up, and a line
 * inside its clip is not sliced.
 */
export const inkOutputGrid = sourcePatch({
  patch: "ink-output-grid",
  name: "ink",
  version: INK,
  files: {
    "build/output.js": [
      [
        "import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';\n",
        "import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, tokenize, } from '@alcalzone/ansi-tokenize';\n" +
          `import { narrow } from ${JSON.stringify(frameDiffPath)};\n` +
          outputHelpers
      ],
      [
        "            cached = styledCharsFromTokens(tokenize(line));\n",
        "            if (this.styledChars.size >= cacheLimit) {\n                this.styledChars.clear();\n            }\n            cached = styledLine(line);\n"
      ],
      [
        "            cached = stringWidth(text);\n",
        "            if (this.widths.size >= cacheLimit) {\n                this.widths.clear();\n            }\n            cached = stringWidth(text);\n"
      ],
      [
        "            this.blockWidths.set(text, cached);\n",
        "            if (this.blockWidths.size >= cacheLimit) {\n                this.blockWidths.clear();\n            }\n            this.blockWidths.set(text, cached);\n"
      ],
      ["    caches = new OutputCaches();\n", "    caches = sharedCaches;\n"],
      ["export default class Output {", "const sharedCaches = new OutputCaches();\nexport default class Output {"],
      [
        `            const row = [];
            for (let x = 0; x < this.width; x++) {
                row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }
            output.push(row);`,
        "            output.push(new Array(this.width).fill(blank));"
      ],
      [
        "                            return sliceAnsi(line, from, to);",
        "                            return from === 0 && to >= width ? line : sliceAnsi(line, from, to);"
      ],
      [
        `                    const characters = this.caches.getStyledChars(line);
                    let offsetX = x;
                    for (const character of characters) {
                        currentLine[offsetX] = character;
                        // Determine printed width using string-width to align with measurement
                        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));`,
        `                    const { chars: characters, widths } = this.caches.getStyledChars(line);
                    let offsetX = x;
                    for (let c = 0; c < characters.length; c++) {
                        const character = characters[c];
                        currentLine[offsetX] = character;
                        const characterWidth = widths === undefined ? 1 : widths[c];`
      ],
      [
        `        const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');`,
        "        const generatedOutput = rowTexts(output).join('\\n');"
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
