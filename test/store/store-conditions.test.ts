/**
 * The store meets the machine: a full disk and a lock another process holds past the busy timeout.
 * Each was answered "internal error of the local platform" (and, for the CLI, "run again with
 * EDGECTL_DEBUG=1"); now each names itself, with its status on the wire (507, 503), the way out on
 * the CLI, and nothing half-written. The full disk is real: a 4 MB tmpfs mounted in a mount
 * namespace of the test's own (`unshare -rm`), holding the state directory of the CLI and of
 * `edgectl serve` at once.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { bin, edgectl, edgectlAsync, shell, tempDir, type Result } from "../helpers/cli.js"

/** One command's outcome, as the script below records it in `out`. */
const outcome = (out: string, name: string) => ({
  status: Number(fs.readFileSync(path.join(out, `${name}.rc`), "utf8").trim()),
  stdout: fs.readFileSync(path.join(out, `${name}.out`), "utf8"),
  stderr: fs.readFileSync(path.join(out, `${name}.err`), "utf8")
})

// Run in a mount namespace of its own: `$mnt` is a 4 MB tmpfs only this script sees. `run NAME
// command…` records the command's stdout, stderr and status in $OUT. Logs stay off the tmpfs (a
// full disk refuses them too).
const fullDiskScript = `
set -u
edgectl() { "$NODE" "$BIN" "$@"; }
run() { local name=$1; shift; "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.rc"; }
mnt=$(mktemp -d)
mount -t tmpfs -o size=4m tmpfs "$mnt" || { echo "cannot mount a tmpfs in the test's namespace" >&2; exit 70; }
state="$mnt/state"
run seed edgectl zones list --persist-to "$state"
edgectl serve --port 0 --json --persist-to "$state" > "$OUT/serve.out" 2> "$OUT/serve.err" &
served=$!
for i in $(seq 1 200); do [ -s "$OUT/serve.out" ] && break; sleep 0.05; done
export CLOUDFLARE_API_BASE_URL=$(sed -n 's/.*"baseUrl":"\\([^"]*\\)".*/\\1/p' "$OUT/serve.out")
export CLOUDFLARE_API_TOKEN=$(sed -n 's/.*"token":"\\([^"]*\\)".*/\\1/p' "$OUT/serve.out")
export CLOUDFLARE_ACCOUNT_ID=$(sed -n 's/.*"accountId":"\\([^"]*\\)".*/\\1/p' "$OUT/serve.out")
run create edgectl kv namespace create full-disk --json --remote
ns=$(sed -n 's/.*"id": *"\\([^"]*\\)".*/\\1/p' "$OUT/create.out")
head -c 225000 /dev/urandom | base64 -w 0 > "$OUT/value"
dd if=/dev/zero of="$mnt/filler" bs=64k 2> /dev/null
run remote-put edgectl kv key put big --path "$OUT/value" --namespace-id "$ns" --remote
run local-put edgectl kv key put big --path "$OUT/value" --namespace-id "$ns" --persist-to "$state"
run get-after edgectl kv key get big --namespace-id "$ns" --remote
run fresh edgectl zones list --persist-to "$mnt/fresh"
rm "$mnt/filler"
run freed-put edgectl kv key put big --path "$OUT/value" --namespace-id "$ns" --remote
run freed-get edgectl kv key get big --namespace-id "$ns" --remote
kill $served; wait $served
run integrity edgectl kv key get big --namespace-id "$ns" --persist-to "$state"
`

/**
 * `script` by bash in a mount namespace of its own (a tmpfs it mounts is its alone): written to a
 * file in `out`, run through the shell helper with $OUT, $NODE and $BIN set.
 */
const inMountNamespace = (script: string, out: string): Promise<Result> => {
  const file = path.join(out, "script.sh")
  fs.writeFileSync(file, script)
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`
  return shell(`OUT=${q(out)} NODE=${q(process.execPath)} BIN=${q(bin)} unshare -rm bash ${q(file)}`, out)
}

describe("a full disk under the state directory", () => {
  it("refuses a write with a 507 naming the full disk, nothing written; a new state too; writes again once freed", async () => {
    const out = tempDir()
    const r = await inMountNamespace(fullDiskScript, out)
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" })
    expect(outcome(out, "seed")).toMatchObject({ status: 0, stderr: "" })
    expect(outcome(out, "create")).toMatchObject({ status: 0 })

    // Through `edgectl serve` (its answer is the wire's: 507, tried once), then in-process.
    const full = "the disk that holds the state directory is full (SQLITE_FULL): nothing was written"
    expect(outcome(out, "remote-put")).toEqual({
      status: 1,
      stdout: "",
      stderr: `error: kv key put: ${full} [code 10001]\n`
    })
    expect(fs.readFileSync(path.join(out, "serve.err"), "utf8")).toMatch(
      new RegExp(
        `^edgectl serve: 507 on PUT /client/v4/accounts/\\w+/storage/kv/namespaces/\\w+/values/big: ${full.replace(/[()]/g, "\\$&")}\n$`
      )
    )
    const local = outcome(out, "local-put")
    expect(local.status).toBe(1)
    expect(local.stderr.split("\n")).toEqual([
      expect.stringMatching(
        /^error: kv key put: the disk that holds the state directory (is full \(SQLITE_FULL\)|answered an I\/O error \(SQLITE_IOERR\w*\))/
      ),
      expect.stringMatching(/^hint: (free space on|check) the disk that holds the state directory/),
      ""
    ])
    // Nothing half-written: the key is not there.
    expect(outcome(out, "get-after").stdout).toBe("Value not found\n")
    // A new state directory on the full disk cannot be made: said so, with the way out.
    expect(outcome(out, "fresh")).toEqual({
      status: 1,
      stdout: "",
      stderr: expect.stringMatching(
        /^error: zones list: the local platform could not start: cannot open \S+\/fresh\/platform\.sqlite: the disk that holds the state directory (is full \(SQLITE_FULL\)|answered an I\/O error \(SQLITE_IOERR\w*\))\nhint: (free space on|check) the disk that holds the state directory[^\n]*\n$/
      )
    })

    // Space freed: the same write succeeds, and the value reads back whole; the store is intact.
    expect(outcome(out, "freed-put")).toMatchObject({ status: 0, stderr: "" })
    expect(outcome(out, "freed-get").stdout).toBe(fs.readFileSync(path.join(out, "value"), "utf8"))
    // And from the file itself, once the server is gone: the store took the write whole.
    expect(outcome(out, "integrity").stdout).toBe(fs.readFileSync(path.join(out, "value"), "utf8"))
  })
})

describe("a lock another process holds past the busy timeout", () => {
  it("refuses the write naming the held lock (nothing written), and writes once it is released", async () => {
    const dir = tempDir()
    expect(edgectl(["zones", "list", "--persist-to", dir], { cwd: dir }).status).toBe(0)
    // Another process takes the write lock and keeps it 6.5 s (the busy timeout is 5 s).
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = new (require("better-sqlite3"))(process.argv[1]); db.exec("BEGIN IMMEDIATE");
         db.exec("DELETE FROM kv_entries WHERE 0"); console.log("held");
         setTimeout(() => { db.exec("COMMIT"); db.close() }, 6500)`,
        path.join(dir, "platform.sqlite")
      ],
      { cwd: path.resolve(import.meta.dirname, "../.."), stdio: ["ignore", "pipe", "inherit"] }
    )
    await new Promise((resolve) => holder.stdout.once("data", resolve))
    const put = await edgectlAsync(["kv", "key", "put", "k", "v", "--namespace-id", "held", "--persist-to", dir], {
      cwd: dir
    })
    expect(put).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: kv key put: another process held the state directory's lock for over 5 s (SQLITE_BUSY): nothing was written [code 10001]\n" +
        "hint: another edgectl (serve, the TUI, a command) is writing the same state directory: try again when it is done\n"
    })
    await new Promise((resolve) => holder.once("close", resolve))
    const list = edgectl(["kv", "key", "list", "--namespace-id", "held", "--persist-to", dir], { cwd: dir })
    expect(list.stdout).toBe("[]\n")
    expect(
      edgectl(["kv", "key", "put", "k", "v", "--namespace-id", "held", "--persist-to", dir], { cwd: dir }).status
    ).toBe(0)
  })
})
