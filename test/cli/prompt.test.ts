/** Units: confirmations (src/cli/prompt.ts) on a terminal's streams and off a terminal. */
import { Effect } from "effect"
import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { confirm, type PromptIo } from "../../src/cli/prompt.js"

const terminal = (answers: string, end = true): { io: PromptIo; asked: () => string } => {
  const input = new PassThrough()
  const output = new PassThrough()
  let asked = ""
  output.on("data", (d: Buffer) => (asked += d.toString()))
  input.write(answers)
  if (end) input.end()
  return { io: { input, output, interactive: true }, asked: () => asked }
}

describe("confirm", () => {
  it("[y/n] without a default asks again until it gets an answer", async () => {
    const t = terminal("maybe\n\ny\n")
    expect(await Effect.runPromise(confirm("Delete it?", { yes: false, io: t.io }))).toBe("yes")
    expect(t.asked()).toBe("Delete it? [y/n] ".repeat(3))
  })

  it("[Y/n] takes the default on an empty answer; n and no say no", async () => {
    expect(await Effect.runPromise(confirm("Go?", { default: true, yes: false, io: terminal("\n").io }))).toBe("yes")
    expect(await Effect.runPromise(confirm("Go?", { default: true, yes: false, io: terminal("no\n").io }))).toBe("no")
    expect(await Effect.runPromise(confirm("Go?", { default: false, yes: false, io: terminal("\n").io }))).toBe("no")
  })

  it("the end of input (ctrl+d) is a no", async () => {
    expect(await Effect.runPromise(confirm("Delete it?", { yes: false, io: terminal("").io }))).toBe("no")
  })

  it("off a terminal: the default, or refused without one; --yes answers yes without asking", async () => {
    const off = { input: new PassThrough(), output: new PassThrough(), interactive: false }
    expect(await Effect.runPromise(confirm("Delete it?", { yes: false, io: off }))).toBe("refused")
    expect(await Effect.runPromise(confirm("Delete them?", { default: true, yes: false, io: off }))).toBe("yes")
    const t = terminal("n\n")
    expect(await Effect.runPromise(confirm("Delete it?", { yes: true, io: t.io }))).toBe("yes")
    expect(t.asked()).toBe("")
  })
})
