/**
 * Every migration command's `--replay FILE` fails alike on a bad file, through the built CLI: one
 * `error: <command> --replay: <file>: <why>` line and no other, exit 1, whether the file is missing,
 * a directory, empty, or holds no line that reads as a request (the first bad line named, its
 * field and the value it got).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

const commands = [
  ["firewall", "migrate"],
  ["firewall", "lockdowns", "migrate"],
  ["firewall", "rate-limits", "migrate"],
  ["migrate"]
] as const

describe("--replay's errors, one wording for every migration", () => {
  const dir = tempDir("edgectl-replay-errors-")
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text)
    return name
  }
  const cases = [
    ["nope.jsonl", "nope.jsonl: no such file"],
    ["sub", "sub is a directory, not a file"],
    [file("empty.jsonl", ""), "empty.jsonl: no request to replay (0 lines)"],
    [
      file("bad.jsonl", '{"at": "yesterday", "request": {"http.host": "acme-mail.com"}}\n[1]\n'),
      'bad.jsonl: no request to replay (2 lines, 2 not read: line 1: at: expected an ISO time ("2026-11-28T08:00:00Z"), milliseconds since 1970 (>= 0) or "+ms" after the previous request, got "yesterday")'
    ]
  ] as const
  fs.mkdirSync(path.join(dir, "sub"))

  for (const command of commands) {
    it(`edgectl ${command.join(" ")} --replay`, async () => {
      // One command's cases in sequence (they share the state directory); the commands in parallel.
      for (const [f, why] of cases) {
        const r = await edgectlAsync([...command, "--zone", "acme-mail.com", "--replay", f], { cwd: dir })
        expect([r.status, r.stdout, r.stderr]).toEqual([1, "", `error: ${command.join(" ")} --replay: ${why}\n`])
      }
    })
  }
})
