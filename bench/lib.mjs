// What the benches share: paths, the command line, bundles of the sources, child runs, medians and
// tables (each bench/<area>.bench.mjs is still a standalone script that bench/run.mjs runs).
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

export const root = path.resolve(import.meta.dirname, "..")
export const bin = path.join(root, "bin", "edgectl.cjs")
export const resultsDir = path.join(root, "bench", "results")

const argv = process.argv.slice(2)
/** `--name value` or `--name=value`; `null` for `--name` with no value after it, else undefined. */
const opt = (name) => {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  if (i < 0) return undefined
  return argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : (argv[i + 1] ?? null)
}
const usage = (message) => {
  process.stderr.write(`error: ${message}\n`)
  process.exit(2)
}

/**
 * A bench's command line: `--quick` (the smaller settings), `--keep` (leave the temp dirs), `--only`,
 * and the integer options `integers` names, each `{ quick, full, min = 1, max = 100 }` (its default
 * with and without `--quick`, and its range). With `sections` (the bench's parts, all run by default)
 * `only` is the set of parts `--only a,b` names; without, `only` is `--only`'s text. A bad value is a
 * usage error (exit 2). Options a bench does not take are ignored: bench/run.mjs passes its whole
 * command line to every bench.
 */
export const benchArgs = ({ integers = {}, sections } = {}) => {
  const quick = argv.includes("--quick")
  const values = {}
  for (const [name, { quick: quickValue, full, min = 1, max = 100 }] of Object.entries(integers)) {
    const given = opt(name)
    const v = Number(given ?? (quick ? quickValue : full))
    if (given === null || !Number.isInteger(v) || v < min || v > max)
      usage(`--${name} must be an integer between ${min} and ${max}, got ${given ?? "nothing"}`)
    values[name] = v
  }
  let only = opt("only")
  if (only === null) usage("--only takes a value")
  if (sections !== undefined) {
    only = new Set(only?.split(",") ?? sections)
    const unknown = [...only].filter((s) => !sections.includes(s))
    if (unknown.length > 0) usage(`--only: no part named ${unknown.join(", ")} (there are: ${sections.join(", ")})`)
  }
  return { quick, keep: argv.includes("--keep"), only, ...values }
}

/**
 * `entry` (a path from the repository's root) bundled as the shipped build bundles the sources
 * (build.mjs: ESM for Node 20, production defines, jsonc-parser's ESM build, better-sqlite3 loaded
 * from node_modules since a native module cannot be bundled), to bench/results/`out`, whose path
 * it returns. Unminified, so a profile of a bench names the sources' functions.
 */
export const buildBench = async (entry, out) => {
  fs.mkdirSync(resultsDir, { recursive: true })
  const outfile = path.join(resultsDir, out)
  await build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3"],
    alias: { "jsonc-parser": path.join(root, "node_modules", "jsonc-parser", "lib", "esm", "main.js") },
    define: { "process.env.NODE_ENV": '"production"' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "warning"
  })
  return outfile
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
export const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d
export const log = (s) => process.stderr.write(`${s}\n`)

/** One `node ARGS` child, timed from spawn to exit; a failure stops the bench with its stderr. */
export const runOnce = (args, env) => {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
    maxBuffer: 64 << 20
  })
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  if (r.status !== 0)
    throw new Error(`node ${args.join(" ")} exited ${r.status ?? r.signal}: ${String(r.stderr).trim()}`)
  return { ms, stdout: String(r.stdout) }
}

/**
 * Why instructions are not counted here, or undefined when they are: valgrind not on the PATH, or
 * EDGECTL_BENCH_INSTRUCTIONS=0. Each bench's tables then leave their instruction cells empty.
 */
export const instructionsSkipped = () => {
  if (process.env.EDGECTL_BENCH_INSTRUCTIONS === "0") return "EDGECTL_BENCH_INSTRUCTIONS=0"
  const r = spawnSync("valgrind", ["--version"])
  if (r.error?.code === "ENOENT") return "valgrind is not installed (not on the PATH)"
  if (r.status !== 0) return `valgrind --version failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`
  return undefined
}

/**
 * `node ARGS` under valgrind with the `tool` options. Its stdout goes to /dev/null opened
 * write-only, as a shell's `>/dev/null`: spawn's "ignore" opens /dev/null read-write, which is what
 * Node puts on a descriptor closed at start (`>&-`), and edgectl reads that as a closed stdout and
 * fails ("cannot write the output: standard output is closed", src/cli/stdio.ts).
 */
export const underValgrind = (tool, args, env, cwd = undefined) => {
  const devNull = fs.openSync("/dev/null", "w")
  try {
    return spawnSync("valgrind", [...tool, process.execPath, ...args], {
      env,
      cwd,
      stdio: ["ignore", devNull, "pipe"],
      timeout: 300_000,
      maxBuffer: 64 << 20
    })
  } finally {
    fs.closeSync(devNull)
  }
}

/** The child's own lines of a valgrind log, without valgrind's `==PID==` lines around them. */
const childLines = (stderr) =>
  String(stderr)
    .split("\n")
    .filter((l) => !/^==\d+==/.test(l))
    .join("\n")
    .trim()

let skipped
/**
 * Instructions one `node ARGS` child executes, counted by valgrind's callgrind (`undefined` where
 * valgrind is not installed, or with EDGECTL_BENCH_INSTRUCTIONS=0: said once on stderr). Unlike wall
 * time it hardly moves on a busy machine (seen: `node -e 0` within 0.2%, a cold `zones list` within
 * 2%, where the timings' ratio moves by 0.4x), so a start-up change shows in it when the timings'
 * noise hides it; it leaves out waiting and I/O. ~15 s per run.
 */
export const instructions = (args, env, cwd = undefined) => {
  if (skipped === undefined) {
    skipped = instructionsSkipped() ?? null
    if (skipped !== null) log(`instructions: not counted: ${skipped}`)
  }
  if (skipped !== null) return undefined
  const r = underValgrind(["--tool=callgrind", "--callgrind-out-file=/dev/null"], args, env, cwd)
  const collected = /Collected : (\d+)/.exec(String(r.stderr))
  if (r.status !== 0 || !collected)
    throw new Error(
      `valgrind node ${args.join(" ")} exited ${r.status ?? r.signal}: ${(childLines(r.stderr) || String(r.stderr).trim()).slice(-500)}`
    )
  return Number(collected[1])
}
/**
 * The median of `runs` counts of `instructions`: a command's count moves by up to ~8% between runs
 * (seen on `firewall rules list`: 1,169 M to 1,299 M), with the work V8's background threads
 * (optimizing compiler, parallel scavenges) get done before the process exits; `node -e 0`'s by 0.2%.
 */
export const medianInstructions = (args, env, runs, cwd = undefined) => {
  const counts = []
  for (let i = 0; i < runs; i++) {
    const n = instructions(args, env, cwd)
    if (n === undefined) return undefined
    counts.push(n)
  }
  return median(counts)
}
/** `edgectl`'s instructions over `node -e 0`'s, as "2.09x" (or "" without valgrind). */
export const instructionRatio = (edgectl, node) =>
  edgectl === undefined || node === undefined ? "" : `${(edgectl / node).toFixed(2)}x`

/** An aligned table on stdout: the first column left, the others right. */
export const table = (title, head, rows) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
  const line = (r) =>
    r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ")
  console.log(`\n${title}`)
  console.log(line(head))
  console.log(widths.map((w) => "-".repeat(w)).join("  "))
  for (const r of rows) console.log(line(r))
}

/**
 * Cold start of whole commands against a bare `node -e 0`: one warm-up run each (page cache, V8
 * code cache), then `runs` interleaved rounds; medians and ratios; and each one's instructions
 * (`instructions`). `argsOf` gives a command's node arguments.
 */
/** Issue 22's targets for a cold command against `node -e 0`: in time, and in instructions. */
export const ColdTimeTarget = 2.0
export const ColdInstructionTarget = 1.75

export const coldStart = (commands, { runs, env, argsOf, target = ColdTimeTarget }) => {
  for (const [, args] of commands) runOnce(argsOf(args), env)
  runOnce(["-e", "0"], env)
  const node = []
  const samples = commands.map(() => [])
  for (let i = 0; i < runs; i++) {
    node.push(runOnce(["-e", "0"], env).ms)
    commands.forEach(([, args], j) => samples[j].push(runOnce(argsOf(args), env).ms))
  }
  const nodeInstructions = instructions(["-e", "0"], env)
  return {
    nodeMs: round(median(node)),
    nodeInstructions,
    target,
    commands: commands.map(([name, args], j) => ({
      command: `edgectl ${name}`,
      ms: round(median(samples[j])),
      ratio: round(median(samples[j]) / median(node), 2),
      instructions: nodeInstructions === undefined ? undefined : instructions(argsOf(args), env)
    }))
  }
}

/** The table of `coldStart`'s figures. */
export const coldStartTable = (c, runs) =>
  table(
    `cold start, median of ${runs} interleaved runs (ms); instructions (callgrind)`,
    ["command", "median", "vs node -e 0", "instructions vs node -e 0"],
    [
      ["node -e 0", c.nodeMs, "1.00x", instructionRatio(c.nodeInstructions, c.nodeInstructions)],
      ...c.commands.map((x) => [
        x.command,
        x.ms,
        `${x.ratio.toFixed(2)}x ${x.ratio < c.target ? `(target < ${c.target}x: met)` : `(target < ${c.target}x: MISSED)`}`,
        x.instructions === undefined || c.nodeInstructions === undefined
          ? instructionRatio(x.instructions, c.nodeInstructions)
          : `${instructionRatio(x.instructions, c.nodeInstructions)} (target < ${ColdInstructionTarget}x: ${
              x.instructions / c.nodeInstructions < ColdInstructionTarget ? "met" : "MISSED"
            })`
      ])
    ]
  )
