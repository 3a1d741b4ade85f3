// A running `edgectl objects dev` (the built CLI) for the live tests, and the CLI against its state.
import { type ChildProcess, spawn } from "node:child_process"
import * as path from "node:path"
import * as readline from "node:readline"
import { bin, edgectlAsync, json, type Result, tempDir } from "./cli.js"

const counterModule = path.resolve(import.meta.dirname, "../fixtures/objects/counter.ts")

export interface Dev {
  readonly url: string
  readonly child: ChildProcess
  readonly text: (p: string) => Promise<string>
  // What the host printed on stderr so far.
  readonly stderr: () => string
  // Stops the host with SIGINT (or the given signal) and waits for it to exit.
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

/** `module` null: none on the command line (the project config's `main`). */
export const startDev = async (
  cwd: string,
  state: string,
  module: string | null = counterModule,
  ...extra: Array<string>
): Promise<Dev> => {
  const child = spawn(
    process.execPath,
    [
      bin,
      "objects",
      "dev",
      ...(module === null ? [] : [module]),
      "--port",
      "0",
      "--json",
      "--persist-to",
      state,
      ...extra
    ],
    {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  let stderr = ""
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d))
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", resolve)
    child.once("exit", (c) => reject(new Error(`objects dev exited ${c}: ${stderr}`)))
  })
  const { url } = JSON.parse(line) as { url: string }
  const exited = new Promise<void>((r) => child.once("exit", () => r()))
  return {
    url,
    child,
    text: async (p) => (await fetch(`${url}${p}`)).text(),
    stderr: () => stderr,
    stop: async (signal = "SIGINT") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    }
  }
}

/** A temp directory, its state directory, and `edgectl objects …` run against that state. */
export const workspace = () => {
  const cwd = tempDir()
  const state = path.join(cwd, "st")
  const run = (...a: Array<string>): Promise<Result> => edgectlAsync(["objects", ...a, "--persist-to", state], { cwd })
  const runJson = async <A = unknown>(...a: Array<string>): Promise<A> => json<A>(await run(...a, "--json"))
  return { cwd, state, run, runJson }
}
