/**
 * `edgectl kv` as a child process on the local platform (the default): every command and option,
 * wrangler's outputs and exit codes, each validation error, confirmations off a terminal, the colon
 * spelling, expired keys, unicode order, and bulk files that write everything or nothing.
 */
import Database from "better-sqlite3"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, json, tempDir, type Result } from "../helpers/cli.js"

let cwd: string
const kv = (args: ReadonlyArray<string>, o: { input?: string; dir?: string } = {}): Result =>
  edgectl(["kv", ...args], { cwd: o.dir ?? cwd, ...(o.input !== undefined ? { input: o.input } : {}) })
const ns = (id: string) => ["--namespace-id", id]
const write = (name: string, content: unknown) => {
  const file = path.join(cwd, name)
  fs.writeFileSync(file, typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content))
  return name
}
const names = (r: Result) => json<Array<{ name: string }>>(r).map((k) => k.name)
const now = () => Math.floor(Date.now() / 1000)

beforeAll(() => {
  cwd = tempDir()
})

describe("kv key", () => {
  it("put, get (raw bytes, --text), list, delete: wrangler's outputs and exit codes", () => {
    const put = kv(["key", "put", "foo", "bar", ...ns("cli-basic")])
    expect(put).toMatchObject({ status: 0, stderr: "" })
    expect(put.stdout).toBe('Wrote key "foo" (3 bytes) to namespace id cli-basic.\n')
    expect(kv(["key", "get", "foo", ...ns("cli-basic")])).toMatchObject({ status: 0, stdout: "bar" })
    expect(kv(["key", "get", "foo", ...ns("cli-basic"), "--text"]).stdout).toBe("bar\n")
    expect(kv(["key", "list", ...ns("cli-basic")]).stdout).toBe('[\n  {\n    "name": "foo"\n  }\n]\n')
    const del = kv(["key", "delete", "foo", ...ns("cli-basic")])
    expect(del).toMatchObject({ status: 0, stdout: 'Deleted key "foo" from namespace id cli-basic.\n' })
    // missing key: "Value not found" on stdout and success, as wrangler; deleting it again is fine too
    expect(kv(["key", "get", "foo", ...ns("cli-basic")])).toMatchObject({ status: 0, stdout: "Value not found\n" })
    expect(kv(["key", "delete", "foo", ...ns("cli-basic")]).status).toBe(0)
    expect(kv(["key", "list", ...ns("cli-basic")]).stdout).toBe("[]\n")
  })

  it("a value from --path keeps its bytes; --ttl wins over --expiration; metadata and expiration are listed", () => {
    const bytes = Buffer.from([0, 255, 10, 13, 128, 7])
    write("blob.bin", bytes)
    const put = kv([
      "key",
      "put",
      "bin",
      "--path",
      "blob.bin",
      ...ns("cli-file"),
      "--ttl",
      "3600",
      "--expiration",
      String(now() + 99_999),
      "--metadata",
      '{"a":1,"s":"x"}'
    ])
    expect(put.stdout).toBe(
      'Wrote key "bin" (6 bytes, from blob.bin, expires in 3600 s, metadata {"a":1,"s":"x"}) to namespace id cli-file.\n'
    )
    const listed = json<Array<{ name: string; expiration: number; metadata: unknown }>>(
      kv(["key", "list", ...ns("cli-file")])
    )
    expect(listed).toHaveLength(1)
    expect(listed[0]!.expiration).toBeGreaterThanOrEqual(now() + 3590)
    expect(listed[0]!.expiration).toBeLessThanOrEqual(now() + 3600)
    expect(listed[0]!.metadata).toEqual({ a: 1, s: "x" })
    const asJson = json<{ key: string; value: string; encoding: string; metadata: unknown }>(
      kv(["key", "get", "bin", ...ns("cli-file"), "--json"])
    )
    expect(asJson).toMatchObject({ key: "bin", encoding: "base64", metadata: { a: 1, s: "x" } })
    expect(Buffer.from(asJson.value, "base64").equals(bytes)).toBe(true)
    const exp = now() + 7200
    kv(["key", "put", "abs", "v", ...ns("cli-file"), "--expiration", String(exp)])
    expect(
      json<Array<{ name: string; expiration?: number }>>(kv(["key", "list", ...ns("cli-file"), "--prefix", "abs"]))
    ).toEqual([{ name: "abs", expiration: exp }])
    expect(kv(["key", "get", "nope", ...ns("cli-file"), "--json"]).stdout).toBe("null\n")
  })

  it("stores and reads binary output through a pipe exactly", () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
    write("all-bytes.bin", bytes)
    kv(["key", "put", "all", "--path", "all-bytes.bin", ...ns("cli-bytes")])
    const r = spawnSync(process.execPath, [bin, "kv", "key", "get", "all", ...ns("cli-bytes")], { cwd })
    expect(r.status).toBe(0)
    expect(Buffer.from(r.stdout).equals(bytes)).toBe(true)
  })

  it("each validation error: one line naming the field, the limit and the actual size; nothing written", () => {
    const cases: Array<[ReadonlyArray<string>, number, string]> = [
      [
        ["key", "put", "x".repeat(513), "v"],
        1,
        "error: kv key put: key is 513 bytes, the limit is 512 bytes [code 10022]"
      ],
      [["key", "put", "", "v"], 1, "error: kv key put: key is empty; a key is 1 to 512 bytes [code 10022]"],
      [
        ["key", "put", ".", "v"],
        1,
        'error: kv key put: key "." is not allowed: "." and ".." name path segments in URLs [code 10022]'
      ],
      [["key", "get", ".."], 1, 'error: kv key get: key ".." is not allowed'],
      [
        ["key", "put", "a b", "v"],
        1,
        "error: kv key put: key has whitespace (U+0020) at character 2; keys are printable characters without whitespace [code 10022]"
      ],
      [
        ["key", "put", "k", "v", "--ttl", "30"],
        1,
        "error: kv key put: expiration_ttl is 30 seconds, the minimum is 60 [code 1004]"
      ],
      [
        ["key", "put", "k", "v", "--ttl", "0"],
        1,
        "error: kv key put: expiration_ttl is 0 seconds, the minimum is 60 [code 1004]"
      ],
      [["key", "put", "k", "v", "--ttl", "abc"], 2, 'error: --ttl must be a whole number of seconds, got "abc"'],
      [["key", "put", "k", "v", "--expiration", "1000"], 1, "error: kv key put: expiration 1000 is"],
      [
        ["key", "put", "k", "v", "--expiration", String(now() + 30)],
        1,
        "seconds ahead; it must be at least 60 seconds in the future"
      ],
      [["key", "put", "k", "v", "--metadata", "{bad"], 1, "error: kv key put: metadata is not valid JSON"],
      [
        ["key", "put", "k", "v", "--metadata", "[1,2]"],
        1,
        "error: kv key put: metadata must be a JSON object, got an array [code 10030]"
      ],
      [
        ["key", "put", "k", "v", "--metadata", JSON.stringify({ v: "x".repeat(1100) })],
        1,
        "error: kv key put: metadata is 1108 bytes as JSON, the limit is 1024 bytes [code 10030]"
      ]
    ]
    for (const [args, status, message] of cases) {
      const r = kv([...args, ...ns("cli-invalid")])
      expect(r.status, args.join(" ")).toBe(status)
      expect(r.stdout).toBe("")
      expect(r.stderr).toContain(message)
      expect(r.stderr.trimEnd().split("\n").length).toBeLessThanOrEqual(2)
    }
    expect(kv(["key", "list", ...ns("cli-invalid")]).stdout).toBe("[]\n")
  })

  it("values: exactly 25 MiB is taken, one byte more is refused before it is read", () => {
    const limit = 25 * 1024 * 1024
    fs.writeFileSync(path.join(cwd, "exact.bin"), Buffer.alloc(limit, 97))
    fs.closeSync(fs.openSync(path.join(cwd, "over.bin"), "w"))
    fs.truncateSync(path.join(cwd, "over.bin"), limit + 1)
    expect(kv(["key", "put", "exact", "--path", "exact.bin", ...ns("cli-size")]).status).toBe(0)
    const over = kv(["key", "put", "over", "--path", "over.bin", ...ns("cli-size")])
    expect(over.status).toBe(1)
    expect(over.stderr).toContain(
      "error: kv key put: value is 26214401 bytes, the limit is 26214400 bytes (25 MiB) [code 10024]"
    )
    expect(names(kv(["key", "list", ...ns("cli-size")]))).toEqual(["exact"])
  })

  it("usage: the value or --path (one of them), exactly one selector, a file that is not there", () => {
    expect(kv(["key", "put", "k", ...ns("x")])).toMatchObject({
      status: 2,
      stderr: "error: exactly one of <value> and --path is required\n"
    })
    write("v.txt", "v")
    expect(kv(["key", "put", "k", "v", "--path", "v.txt", ...ns("x")])).toMatchObject({
      status: 2,
      stderr: "error: give the value or --path, not both\n"
    })
    expect(kv(["key", "get", "k"])).toMatchObject({
      status: 2,
      stderr: "error: exactly one of --binding and --namespace-id is required\n"
    })
    expect(kv(["key", "delete", "k", "--binding", "B", ...ns("x")])).toMatchObject({
      status: 2,
      stderr: "error: --binding and --namespace-id cannot be used together; give only one\n"
    })
    expect(kv(["bulk", "put", "f.json", "--binding", "B", ...ns("x")]).status).toBe(2)
    const missing = kv(["key", "put", "k", "--path", "nope.txt", ...ns("x")])
    expect(missing).toMatchObject({ status: 1, stderr: "error: kv key put: cannot read nope.txt: no such file\n" })
    expect(kv(["key", "bogus"]).status).toBe(2)
    expect(kv(["key", "get", "--bogus", ...ns("x")]).status).toBe(2)
  })

  it("lists keys in UTF-8 byte order, with and without a prefix, and keys that need URL encoding", () => {
    const keys = ["b", "a", "é", "\uFFFD", "😀", "a/b", "q?x", "100%", "z".repeat(300)]
    for (const k of keys) expect(kv(["key", "put", k, `v-${k.length}`, ...ns("cli-order")]).status).toBe(0)
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
    expect(names(kv(["key", "list", ...ns("cli-order")]))).toEqual(byBytes)
    expect(names(kv(["key", "list", ...ns("cli-order"), "--prefix", "a"]))).toEqual(["a", "a/b"])
    expect(kv(["key", "get", "a/b", ...ns("cli-order")]).stdout).toBe("v-3")
    expect(kv(["key", "get", "z".repeat(300), ...ns("cli-order")]).stdout).toBe("v-300")
  })

  it("expired keys are invisible to get and list", () => {
    kv(["key", "put", "live", "v", ...ns("cli-expired")])
    kv(["key", "put", "doomed", "v", ...ns("cli-expired"), "--ttl", "60"])
    // Age the entry in the store itself (a test cannot wait a minute).
    const db = new Database(path.join(cwd, ".edgectl", "state", "platform.sqlite"))
    db.prepare("UPDATE kv_entries SET expiration = ? WHERE key = ?").run(now() - 1, Buffer.from("doomed"))
    db.close()
    expect(names(kv(["key", "list", ...ns("cli-expired")]))).toEqual(["live"])
    expect(kv(["key", "get", "doomed", ...ns("cli-expired")]).stdout).toBe("Value not found\n")
  })

  it("keeps data under --persist-to, apart from the default state", () => {
    const store = path.join(cwd, "custom-state")
    kv(["key", "put", "p", "v", ...ns("cli-persist"), "--persist-to", store])
    expect(fs.existsSync(path.join(store, "platform.sqlite"))).toBe(true)
    expect(kv(["key", "get", "p", ...ns("cli-persist"), "--persist-to", store]).stdout).toBe("v")
    expect(kv(["key", "get", "p", ...ns("cli-persist")]).stdout).toBe("Value not found\n")
    // --local in any of its forms is the default target
    for (const local of [["--local"], ["--local", "true"], ["--local=true"]]) {
      expect(kv(["key", "get", "p", ...ns("cli-persist"), "--persist-to", store, ...local]).stdout).toBe("v")
    }
  })

  it("the colon spelling works and warns on stderr", () => {
    const r = edgectl(["kv:key", "put", "c", "v", ...ns("cli-colon")], { cwd })
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('warning: "kv:key" is deprecated; use "kv key" (with a space)\n')
    const list = edgectl(["kv:key", "list", ...ns("cli-colon")], { cwd })
    expect(names(list)).toEqual(["c"])
    expect(edgectl(["kv:namespace", "list"], { cwd }).stderr).toContain('"kv:namespace" is deprecated')
    expect(edgectl(["kv:bulk", "put", "nope.json", ...ns("cli-colon")], { cwd }).stderr).toContain(
      '"kv:bulk" is deprecated'
    )
  })
})

describe("kv bulk", () => {
  it("puts every entry of a file, base64 and metadata included, and answers the platform's count with --json", () => {
    const file = write("bulk-ok.json", [
      { key: "b1", value: "one", metadata: { m: 1 } },
      { key: "b2", value: "aGVsbG8=", base64: true, expiration_ttl: 600 },
      { key: "b3", value: "three", extra: true }
    ])
    const r = kv(["bulk", "put", file, ...ns("cli-bulk")])
    expect(r.status).toBe(0)
    expect(r.stdout).toBe("Wrote 3 entries to namespace id cli-bulk.\n")
    expect(r.stderr).toBe(
      'warning: bulk-ok.json: entry 2 has a property that is not part of a bulk entry (ignored): "extra"\n'
    )
    expect(kv(["key", "get", "b2", ...ns("cli-bulk")]).stdout).toBe("hello")
    const again = json(kv(["bulk", "put", file, ...ns("cli-bulk"), "--json"]))
    expect(again).toEqual({ successful_key_count: 3, unsuccessful_keys: [] })
  })

  it("a file with one bad entry writes nothing, and says which entry and why", () => {
    const file = write("bulk-bad.json", [
      { key: "ok-1", value: "1" },
      { key: "bad", value: "2", expiration_ttl: 30 },
      { key: "ok-2", value: "3" },
      { key: "b64", value: "@@@not base64!!", base64: true },
      { key: "x".repeat(513), value: "4" }
    ])
    const r = kv(["bulk", "put", file, ...ns("cli-bulk-bad")])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toMatch(
      /^error: kv bulk put: bulk-bad\.json: 3 invalid entries, nothing was written: entry 1 \(key "bad"\): expiration_ttl is 30 seconds, the minimum is 60; entry 3 \(key "b64"\): value is not valid base64: "@" at character 1; .*; entry 4 \(key "x{39}…"\): key is 513 bytes, the limit is 512 bytes \[code 1004\]\n$/
    )
    expect(kv(["key", "list", ...ns("cli-bulk-bad")]).stdout).toBe("[]\n")
  })

  it("files that are not a JSON array of entries", () => {
    const cases: Array<[string, string, string]> = [
      [
        "truncated.json",
        '[{"key":"a","value":"1"},',
        "error: kv bulk put: truncated.json:1:26: the file ends before the array's closing ]"
      ],
      [
        "syntax.json",
        '[{"key":"a",}]',
        "error: kv bulk put: syntax.json:1:13: invalid JSON: expected a property name in double quotes"
      ],
      [
        "object.json",
        '{"key":"a","value":"1"}',
        "error: kv bulk put: object.json:1:1: expected a JSON array, got an object"
      ],
      [
        "types.json",
        '[{"key":"a"},{"key":"b","value":1},{"value":"x"},"s"]',
        'error: kv bulk put: types.json: 4 invalid entries, nothing was written: entry 0 (key "a"): value is missing'
      ],
      ["missing.json", "", "error: kv bulk put: cannot read missing.json: no such file"]
    ]
    for (const [name, content, message] of cases) {
      if (content !== "") write(name, content)
      const r = kv(["bulk", "put", name, ...ns("cli-bulk-files")])
      expect(r.status, name).toBe(1)
      expect(r.stderr, name).toContain(message)
    }
    expect(kv(["key", "list", ...ns("cli-bulk-files")]).stdout).toBe("[]\n")
  })

  it("bulk delete asks with default yes: off a terminal it deletes; strings and {name} objects", () => {
    write(
      "bulk-del-put.json",
      ["d1", "d2", "d3", "keep"].map((key) => ({ key, value: key }))
    )
    kv(["bulk", "put", "bulk-del-put.json", ...ns("cli-bulk-del")])
    const file = write("bulk-del.json", ["d1", { name: "d2" }, "d3", "absent"])
    const r = kv(["bulk", "delete", file, ...ns("cli-bulk-del")])
    expect(r).toMatchObject({ status: 0, stdout: "Deleted 4 keys from namespace id cli-bulk-del.\n" })
    expect(names(kv(["key", "list", ...ns("cli-bulk-del")]))).toEqual(["keep"])
    const bad = write("bulk-del-bad.json", ["keep", 5, { x: 1 }])
    const refused = kv(["bulk", "delete", bad, ...ns("cli-bulk-del"), "--force"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(
      "2 invalid entries, nothing was deleted: entry 1: must be a key string or an object"
    )
    expect(names(kv(["key", "list", ...ns("cli-bulk-del")]))).toEqual(["keep"])
  })

  it("bulk get prints the listed keys' values as text, missing ones null, each key once; --metadata adds metadata and expiration", () => {
    const entries = [
      { key: "g1", value: "v1", metadata: { a: 1 } },
      { key: "g2", value: "héllo", expiration_ttl: 3600 }
    ]
    expect(kv(["bulk", "put", write("bulk-get-put.json", entries), ...ns("cli-bulk-get")]).status).toBe(0)
    const file = write("bulk-get.json", ["g1", { name: "g2" }, "absent", "g1"])
    const r = kv(["bulk", "get", file, ...ns("cli-bulk-get")])
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ g1: { value: "v1" }, g2: { value: "héllo" }, absent: { value: null } })
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(["g1", "g2", "absent"])
    const withMeta = JSON.parse(kv(["bulk", "get", file, ...ns("cli-bulk-get"), "--metadata"]).stdout)
    expect(withMeta.g1).toEqual({ value: "v1", metadata: { a: 1 } })
    expect(withMeta.g2).toMatchObject({ value: "héllo", metadata: null, expiration: expect.any(Number) })
    expect(withMeta.absent).toEqual({ value: null, metadata: null })
    const many = write(
      "bulk-get-many.json",
      Array.from({ length: 250 }, (_, i) => `m${i}`)
    )
    expect(Object.keys(JSON.parse(kv(["bulk", "get", many, ...ns("cli-bulk-get")]).stdout))).toHaveLength(250)
    const refused = kv(["bulk", "get", write("bulk-get-bad.json", ["g1", 7]), ...ns("cli-bulk-get")])
    expect(refused.status).toBe(1)
    expect(refused.stdout).toBe("")
    expect(refused.stderr).toContain("1 invalid entry, nothing was read: entry 1: must be a key string or an object")
  })
})

describe("kv namespace", () => {
  it("create without a config: worker prefix (with a warning), a toml snippet; list shows it; duplicate is code 10014", () => {
    const dir = tempDir()
    const r = kv(["namespace", "create", "My Cool-NS.2"], { dir })
    expect(r.status).toBe(0)
    expect(r.stderr).toBe(
      'warning: no wrangler.json, wrangler.jsonc or wrangler.toml here: the title uses "worker" as its prefix\n'
    )
    const id = /\(id ([0-9a-f]{32})\)/.exec(r.stdout)![1]!
    expect(r.stdout).toBe(
      `Created KV namespace "worker-My Cool-NS.2" (id ${id}) on the local platform (--remote for the real one).\nAdd it to wrangler.toml:\n[[kv_namespaces]]\nbinding = "My_Cool_NS2"\nid = "${id}"\n`
    )
    const list = json<Array<{ id: string; title: string }>>(kv(["namespace", "list"], { dir }))
    expect(list.find((n) => n.id === id)).toEqual({ id, title: "worker-My Cool-NS.2", supports_url_encoding: true })
    const dup = kv(["namespace", "create", "My Cool-NS.2"], { dir })
    expect(dup.status).toBe(1)
    expect(dup.stderr).toContain(
      'a namespace with this account ID and title already exists: "worker-My Cool-NS.2" [code 10014]\nhint: run `edgectl kv namespace list`'
    )
  })

  it("delete asks [y/n]: off a terminal it refuses without --yes; --yes, -y and a title all work", () => {
    const dir = tempDir()
    const a = json<{ id: string }>(kv(["namespace", "create", "del-a", "--json"], { dir }))
    const refused = kv(["namespace", "delete", ...ns(a.id)], { dir })
    expect(refused.status).toBe(1)
    expect(refused.stderr).toBe(
      `error: kv namespace delete: not deleting namespace "worker-del-a" (id ${a.id}) without a confirmation: stdin is not a terminal\nhint: pass --yes to delete it\n`
    )
    expect(kv(["namespace", "delete", ...ns(a.id), "--yes"], { dir }).stdout).toBe(
      `Deleted KV namespace "worker-del-a" (id ${a.id}).\n`
    )
    const b = json<{ id: string }>(kv(["namespace", "create", "del-b", "--json"], { dir }))
    expect(kv(["namespace", "delete", "worker-del-b", "-y"], { dir }).stdout).toBe(
      `Deleted KV namespace "worker-del-b" (id ${b.id}).\n`
    )
    const gone = json<Array<{ id: string }>>(kv(["namespace", "list"], { dir }))
    expect(gone.some((n) => n.id === a.id || n.id === b.id)).toBe(false)
    const unknown = kv(["namespace", "delete", ...ns("0".repeat(32)), "--yes"], { dir })
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toContain("[code 10013]\nhint: run `edgectl kv namespace list`")
    expect(kv(["namespace", "delete", "t", ...ns("x")], { dir }).status).toBe(2)
  })

  it("rename by title or id: only the title changes; a taken title, an empty one and two selectors are refused", () => {
    const dir = tempDir()
    const a = json<{ id: string }>(kv(["namespace", "create", "ren-a", "--json"], { dir }))
    kv(["key", "put", "k", "v", ...ns(a.id)], { dir })
    expect(kv(["namespace", "rename", "worker-ren-a", "--new-name", "ren-b"], { dir }).stdout).toBe(
      `Renamed KV namespace "worker-ren-a" (id ${a.id}) to "ren-b".\n`
    )
    expect(json(kv(["namespace", "rename", ...ns(a.id), "--new-name", "ren-c", "--json"], { dir }))).toMatchObject({
      id: a.id,
      title: "ren-c"
    })
    expect(kv(["key", "get", "k", ...ns(a.id), "--text"], { dir }).stdout).toBe("v\n")
    json(kv(["namespace", "create", "taken", "--json"], { dir }))
    const taken = kv(["namespace", "rename", "ren-c", "--new-name", "worker-taken"], { dir })
    expect(taken.status).toBe(1)
    expect(taken.stderr).toContain("[code 10014]")
    expect(kv(["namespace", "rename", "ren-c", "--new-name", ""], { dir }).stderr).toBe(
      "error: --new-name must be 1 to 512 characters, got an empty title\n"
    )
    expect(kv(["namespace", "rename", "ren-c", ...ns(a.id), "--new-name", "x"], { dir }).status).toBe(2)
  })

  it("local mode takes any namespace id, as wrangler's local storage: created by its first write", () => {
    const dir = tempDir()
    expect(kv(["key", "list", ...ns("my-local-ns")], { dir }).stdout).toBe("[]\n")
    expect(json<Array<{ id: string }>>(kv(["namespace", "list"], { dir })).some((n) => n.id === "my-local-ns")).toBe(
      false
    )
    kv(["key", "put", "k", "v", ...ns("my-local-ns")], { dir })
    expect(
      json<Array<{ id: string; title: string }>>(kv(["namespace", "list"], { dir })).find((n) => n.id === "my-local-ns")
        ?.title
    ).toBe("my-local-ns")
  })
})
