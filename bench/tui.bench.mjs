// The TUI bench (run by bench/run.mjs, after `node build.mjs`): what one key costs on a full screen.
//
// The built TUI runs in a pseudo-terminal (util-linux `script`, as bench/platform.bench.mjs does) at
// 120x40 and 80x24, on the DNS list of acme.com (1,000+ records, paged from the local platform as the
// cursor moves). Then `j` is pressed N times, one at a time, each after the frame of the last has
// been written (Ink ends every frame with the end of a synchronized update, ESC[?2026l). Reported
// per key: the bytes written to the terminal, the TUI process's CPU (user + system, from
// /proc/PID/stat) and the wall time until its frame was written.
//
// Each size is measured with Ink's incremental rendering (the default: only changed lines are
// written) and with whole-frame redraws (EDGECTL_TUI_INCREMENTAL=0, how every key was drawn before).
//
// The first frame: from the spawn of the TUI (at 120x40, platform state and code cache made by the
// warm-up run) to the first complete frame of the zone list (its rows and its status line on the
// screen), and to its first frame of any kind, over `starts` runs; `node -e 0` beside it, for scale
// on a busy machine; and the instructions of that start under callgrind (two runs).
//
// Notes (profiles: `node --cpu-prof` on the TUI in a pty while j is pressed, and from spawn to the
// zone list). Per key at 120x40, before: ~12 ms of CPU, ~9 of them in Ink's output grid
// (output.js: every line tokenized again each frame, an object and a style array per cell, a style
// diff per pair of neighbouring cells, slice-ansi on every clipped line), then three write system
// calls (begin sync, frame, end sync), the React update and yoga's layout ~1 ms together; and 3.3 KB
// written, because the list keeps its cursor in the middle, so a j scrolls every row and Ink
// rewrote each changed line whole. Chosen: the grid's work cut where it repeats (build/patches/
// ink.mjs, inkOutputGrid), the three writes corked into one, and the terminal told to move the
// rows (delete/insert line) with only the changed part of each line written (tui/frame-diff.ts).
// Not chosen: scrolling the list by pages (fewer scrolls, but other screens than the ones the pty
// suites read). The wall per key was Ink's 30 fps throttle (a frame asked for within 34 ms of the
// last waits): maxFps 120. At the start the main thread waited ~36 ms for yoga's wasm before the
// platform opened; opening it and reading the zone list's first page meanwhile was tried and not
// kept: the list came no sooner, the first bytes ~80 ms later (the platform opens on the main thread).
// That wait, measured in the TUI (18 starts, under load): 17-63 ms, median ~32, even with the
// asynchronous compile started by the launcher before the CLI loads (median ~40: V8 finishes an
// asynchronous wasm compile in tasks on the main thread, busy loading modules until the await).
// Chosen: the launcher compiles the wasm synchronously when it sees a TUI start (1.5-6 ms for its
// 70 KB, Buffer's native base64 instead of yoga's JavaScript decoder) and yoga instantiates that
// module (build/patches/yoga-layout.mjs): the wait is 0 in all 18. Instructions to the zone list
// hardly move (2.33/2.30 -> 2.29/2.30 G: the change removes waiting, not work). Measured and not
// kept: lazy screens (only the zones screen's modules before the first frame): -40 M instructions
// (~2%), for a Suspense on each first visit; a larger young generation (--max-semi-space-size=16):
// +70 M; skipping @effect/cli's parsing for `edgectl tui` (the bare `edgectl` path does): no
// difference in instructions. A state set when the zone list's first page came (to hold keys
// typed early) drew the whole list once more: +170 M; a ref instead.
//
//   node bench/tui.bench.mjs [--quick] [--keys N] [--starts N]
import xterm from "@xterm/headless"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { benchArgs, bin, instructionsSkipped, log, median, resultsDir, round, table } from "./lib.mjs"

const { keys, starts } = benchArgs({
  integers: { keys: { quick: 60, full: 200, min: 10, max: 2000 }, starts: { quick: 5, full: 15, min: 1, max: 100 } }
})

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim() || 100)
const FrameEnd = "\u001b[?2026l"

/** utime + stime of a process, in ms. */
const cpuMs = (pid) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
}

const state = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-bench-tui-"))
const children = new Set()
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL")
  fs.rmSync(state, { recursive: true, force: true })
})

/** One TUI session: opens acme.com's DNS list, presses `j` `keys` times, quits. */
const session = (columns, rows, incremental) =>
  new Promise((resolve, reject) => {
    const command = `stty cols ${columns} rows ${rows}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} tui --persist-to ${JSON.stringify(state)}`
    const env = { ...process.env, TERM: "xterm-256color", CI: "true", EDGECTL_TUI_INCREMENTAL: incremental ? "1" : "0" }
    const child = spawn("script", ["-qfec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "ignore"] })
    children.add(child)
    let out = ""
    let bytes = 0
    // What the terminal shows: a frame writes only the changed part of a line, so the text waited
    // for is read from the screen, not from the bytes.
    const term = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 })
    const screen = () => {
      const lines = []
      for (let y = 0; y < term.rows; y++) lines.push(term.buffer.active.getLine(y)?.translateToString(true) ?? "")
      return lines.join("\n")
    }
    child.stdout.on("data", (d) => {
      out += d.toString("latin1")
      bytes += d.length
      term.write(d)
    })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the TUI (${columns}x${rows}) did not finish within 120 s; the screen:\n${screen()}`))
    }, 120_000)
    child.on("exit", () => {
      children.delete(child)
      clearTimeout(timer)
    })
    const until = async (check, what) => {
      const deadline = Date.now() + 30_000
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`the TUI did not show ${what}; the screen:\n${screen()}`)
        await sleep(5)
      }
    }
    const frames = () => out.split(FrameEnd).length - 1
    const type = async (text) => {
      for (const c of text) {
        const before = frames()
        child.stdin.write(c)
        await until(() => frames() > before, `a frame after ${JSON.stringify(c)}`)
      }
    }
    void (async () => {
      await until(() => screen().includes("acme-api.com"), "the zone list")
      /** Sends `key` and waits until the screen shows `text`. */
      const step = async (key, text) => {
        child.stdin.write(key)
        await until(() => screen().includes(text), `${text} after ${JSON.stringify(key)}`)
        await sleep(50)
      }
      await step("/", "type filter")
      await type("acme.com")
      await until(() => screen().includes("1/1 "), "acme.com alone")
      await step("\r", "filter: acme.com")
      await step("\r", "[DNS records]")
      await until(() => /\d+\/\d{3,}/.test(screen()), "acme.com's DNS list")
      await sleep(500)
      const tui = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/)[0]
      const cpu0 = cpuMs(tui)
      const bytes0 = bytes
      const wall = []
      for (let i = 0; i < keys; i++) {
        const before = frames()
        const t0 = performance.now()
        child.stdin.write("j")
        await until(() => frames() > before, `the frame of j #${i + 1}`)
        wall.push(performance.now() - t0)
      }
      const cpu = cpuMs(tui) - cpu0
      const written = bytes - bytes0
      child.stdin.write("q")
      await until(() => child.exitCode !== null, "its exit")
      return {
        bytesPerKey: round(written / keys, 0),
        cpuMsPerKey: round(cpu / keys, 2),
        wallMsPerKey: round(median(wall), 2)
      }
    })().then(resolve, (e) => {
      child.kill("SIGKILL")
      reject(e)
    })
  })

/** One start: ms from spawn to the first bytes, and to the zone list's first complete frame. */
/** `callgrind`: run under valgrind's callgrind, its log (with the instruction count) written there. */
const start = (callgrind = undefined) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    const valgrind =
      callgrind === undefined
        ? ""
        : `valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file=${JSON.stringify(callgrind)} `
    const command = `stty cols 120 rows 40; exec ${valgrind}${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} tui --persist-to ${JSON.stringify(state)}`
    const env = { ...process.env, TERM: "xterm-256color", CI: "true" }
    const child = spawn("script", ["-qfec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "ignore"] })
    children.add(child)
    const term = new xterm.Terminal({ cols: 120, rows: 40, allowProposedApi: true, scrollback: 0 })
    let first
    let listed
    child.stdout.on("data", (d) => {
      const at = performance.now() - t0
      first ??= at
      term.write(d, () => {
        if (listed !== undefined) return
        let text = ""
        for (let y = 0; y < term.rows; y++) text += `${term.buffer.active.getLine(y)?.translateToString(true)}\n`
        if (!text.includes("acme-api.com") || !/\d+\/\d+/.test(text)) return
        listed = at
        child.stdin.write("q")
      })
    })
    const timer = setTimeout(() => child.kill("SIGKILL"), callgrind === undefined ? 60_000 : 300_000)
    child.on("exit", () => {
      children.delete(child)
      clearTimeout(timer)
      if (listed === undefined) reject(new Error("the TUI did not show the zone list within 60 s"))
      else resolve({ first, listed })
    })
  })

const results = { keys, sizes: [] }
// A first run creates the platform's state and the TUI's code cache.
log("TUI per-key cost: a warm-up run")
await session(120, 40, true)
for (const [columns, rows] of [
  [120, 40],
  [80, 24]
]) {
  for (const incremental of [false, true]) {
    log(`TUI per-key cost at ${columns}x${rows}, ${incremental ? "incremental" : "whole frames"}: ${keys} keys`)
    results.sizes.push({ columns, rows, incremental, ...(await session(columns, rows, incremental)) })
  }
}

const nodeMs = []
const firsts = []
for (let i = 0; i < starts; i++) {
  log(`TUI first frame: start ${i + 1}/${starts}`)
  const t0 = performance.now()
  spawnSync(process.execPath, ["-e", "0"])
  nodeMs.push(performance.now() - t0)
  firsts.push(await start())
}
// Instructions from the spawn to the zone list (and its quit), which the load hardly moves: what
// decides a start-up change when the timings' noise hides it. Where they do not count (waiting for
// a compile on another thread), the timings above and a trace must say it.
const counts = []
const noCallgrind = instructionsSkipped()
if (noCallgrind !== undefined) log(`TUI first frame under callgrind: not counted: ${noCallgrind}`)
else {
  for (let i = 0; i < 2; i++) {
    log(`TUI first frame under callgrind: ${i + 1}/2`)
    const file = path.join(state, `callgrind-${i}.log`)
    await start(file)
    counts.push(Number(/Collected : (\d+)/.exec(fs.readFileSync(file, "utf8"))?.[1]))
  }
}
results.firstFrame = {
  starts,
  listedMs: round(median(firsts.map((f) => f.listed)), 0),
  listedMinMs: round(Math.min(...firsts.map((f) => f.listed)), 0),
  firstBytesMs: round(median(firsts.map((f) => f.first)), 0),
  nodeMs: round(median(nodeMs), 0),
  ...(counts.length > 0 ? { instructionsM: round(median(counts) / 1e6, 0) } : {})
}

table(
  `TUI: one j on acme.com's DNS list, ${keys} keys (bytes written and the TUI's CPU per key; wall: median ms to the frame)`,
  ["size, rendering", "bytes/key", "cpu ms/key", "wall ms/key"],
  results.sizes.map((s) => [
    `${s.columns}x${s.rows}, ${s.incremental ? "incremental" : "whole frames"}`,
    s.bytesPerKey,
    s.cpuMsPerKey,
    s.wallMsPerKey
  ])
)
table(
  `TUI: first frame at 120x40, ${starts} starts (ms from spawn; median, and the fastest)`,
  ["what", "median ms", "min ms"],
  [
    ["zone list, first complete frame", results.firstFrame.listedMs, results.firstFrame.listedMinMs],
    ["first bytes on the terminal", results.firstFrame.firstBytesMs, round(Math.min(...firsts.map((f) => f.first)), 0)],
    ["node -e 0 (for scale)", results.firstFrame.nodeMs, round(Math.min(...nodeMs), 0)],
    ...(counts.length > 0
      ? [
          [
            "zone list, instructions (M, callgrind)",
            results.firstFrame.instructionsM,
            round(Math.min(...counts) / 1e6, 0)
          ]
        ]
      : [])
  ]
)
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "tui.json"), JSON.stringify(results, null, 2))
