/**
 * `--binding`, `--env` and `--preview` through the project config users already have for wrangler
 * (wrangler.toml, wrangler.jsonc, wrangler.json), and `kv namespace create`'s titles and snippets.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, json, tempDir, type Result } from "../helpers/cli.js"

const Toml = `
name = "my-worker"
account_id = "0123456789abcdef0123456789abcdef"

kv_namespaces = [
  { binding = "MY_KV", id = "prod-id" },
  { binding = "BOTH", id = "both-prod", preview_id = "both-preview" },
  { binding = "ONLY_PREVIEW", preview_id = "only-preview" }
]

[env.staging]
kv_namespaces = [ { binding = "MY_KV", id = "staging-id", preview_id = "staging-preview" } ]

[env.production]
name = "prod-worker"
`

const Jsonc = `// wrangler.jsonc, with comments and trailing commas
{
  "name": "json-worker",
  "kv_namespaces": [
    { "binding": "MY_KV", "id": "json-prod", "preview_id": "json-preview" }, // both
  ],
  "env": {
    "staging": { "kv_namespaces": [{ "binding": "MY_KV", "id": "json-staging" }] },
  },
}
`

const project = (files: Record<string, string>) => {
  const dir = tempDir("edgectl-kvconfig-")
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), content)
  }
  return dir
}

const run =
  (dir: string) =>
  (...args: ReadonlyArray<string>): Result =>
    edgectl(["kv", ...args], { cwd: dir })
/** Where a write through a binding went: the namespace id that holds the key. */
const holder = (kv: (...a: ReadonlyArray<string>) => Result, key: string, ids: ReadonlyArray<string>) =>
  ids.filter((id) => kv("key", "get", key, "--namespace-id", id).stdout !== "Value not found\n")

describe("wrangler.toml", () => {
  let kv: ReturnType<typeof run>
  beforeAll(() => {
    kv = run(project({ "wrangler.toml": Toml }))
  })

  it("--binding writes to the binding's id", () => {
    expect(kv("key", "put", "k1", "v", "--binding", "MY_KV").stdout).toBe(
      'Wrote key "k1" (1 byte) to namespace binding MY_KV (prod-id).\n'
    )
    expect(kv("key", "get", "k1", "--namespace-id", "prod-id").stdout).toBe("v")
    expect(kv("key", "get", "k1", "--binding", "MY_KV").stdout).toBe("v")
  })

  it("a binding with id and preview_id: writes need --preview or --preview false; reads take the id", () => {
    const refused = kv("key", "put", "k2", "v", "--binding", "BOTH")
    expect(refused.status).toBe(1)
    expect(refused.stderr).toBe(
      "error: kv key put: --binding BOTH has both an id and a preview_id in wrangler.toml: pass --preview to write to the preview namespace, or --preview false for the production one\nhint: check kv_namespaces in the project config, or pass --namespace-id\n"
    )
    expect(kv("bulk", "delete", "x.json", "--binding", "BOTH").status).toBe(1)
    // the four boolean forms
    kv("key", "put", "flag", "v", "--binding", "BOTH", "--preview")
    kv("key", "put", "true", "v", "--binding", "BOTH", "--preview", "true")
    kv("key", "put", "false", "v", "--binding", "BOTH", "--preview", "false")
    kv("key", "put", "eq-false", "v", "--binding", "BOTH", "--preview=false")
    const ids = ["both-prod", "both-preview"]
    expect(holder(kv, "flag", ids)).toEqual(["both-preview"])
    expect(holder(kv, "true", ids)).toEqual(["both-preview"])
    expect(holder(kv, "false", ids)).toEqual(["both-prod"])
    expect(holder(kv, "eq-false", ids)).toEqual(["both-prod"])
    expect(kv("key", "get", "false", "--binding", "BOTH").stdout).toBe("v")
    expect(kv("key", "list", "--binding", "BOTH", "--preview").stdout).toContain('"name": "flag"')
  })

  it("--preview without a preview_id, and a binding with only a preview_id", () => {
    expect(kv("key", "get", "k", "--binding", "MY_KV", "--preview").stderr).toBe(
      "error: kv key get: --preview: binding MY_KV has no preview_id in kv_namespaces of wrangler.toml; add one, or use --namespace-id\nhint: check kv_namespaces in the project config, or pass --namespace-id\n"
    )
    kv("key", "put", "p", "v", "--binding", "ONLY_PREVIEW")
    expect(kv("key", "get", "p", "--namespace-id", "only-preview").stdout).toBe("v")
    expect(kv("key", "get", "p", "--binding", "ONLY_PREVIEW", "--preview", "false").stderr).toContain(
      "the entry in kv_namespaces of wrangler.toml has no id (only a preview_id: pass --preview)"
    )
  })

  it("--env uses the environment's own kv_namespaces, which are not inherited", () => {
    kv("key", "put", "s", "v", "--binding", "MY_KV", "--env", "staging", "--preview", "false")
    expect(holder(kv, "s", ["prod-id", "staging-id", "staging-preview"])).toEqual(["staging-id"])
    expect(kv("key", "get", "s", "--binding", "MY_KV", "-e", "staging").stdout).toBe("v")
    expect(kv("key", "get", "s", "--binding", "MY_KV", "--env", "production").stderr).toContain(
      "error: kv key get: --binding MY_KV: no KV namespace with that binding in env.production.kv_namespaces of wrangler.toml (the top level has it, but environments do not inherit kv_namespaces)"
    )
    expect(kv("key", "get", "s", "--binding", "MY_KV", "--env", "nope").stderr).toContain(
      "error: kv key get: --env nope: wrangler.toml has no [env.nope] section (environments: staging, production)"
    )
    expect(kv("key", "get", "s", "--binding", "NOPE").stderr).toContain(
      "--binding NOPE: no KV namespace with that binding in kv_namespaces of wrangler.toml (bindings: MY_KV, BOTH, ONLY_PREVIEW)"
    )
  })

  it("namespace create: the project prefix, _preview, the environment once; the snippet under its section", () => {
    const plain = kv("namespace", "create", "my-ns")
    const id = /\(id ([0-9a-f]{32})\)/.exec(plain.stdout)![1]!
    expect(plain.stdout).toBe(
      `Created KV namespace "my-worker-my-ns" (id ${id}) on the local platform (--remote for the real one).\nAdd it to wrangler.toml:\n[[kv_namespaces]]\nbinding = "my_ns"\nid = "${id}"\n`
    )
    expect(plain.stderr).toBe("")
    const preview = kv("namespace", "create", "my-ns", "--preview")
    const pid = /\(id ([0-9a-f]{32})\)/.exec(preview.stdout)![1]!
    expect(preview.stdout).toContain(`"my-worker-my-ns_preview"`)
    expect(preview.stdout).toContain(`[[kv_namespaces]]\nbinding = "my_ns"\npreview_id = "${pid}"\n`)
    const staging = kv("namespace", "create", "my-ns", "--env", "staging")
    const sid = /\(id ([0-9a-f]{32})\)/.exec(staging.stdout)![1]!
    expect(staging.stdout).toContain(`"my-worker-staging-my-ns"`)
    expect(staging.stdout).toContain(
      `Add it to the "staging" environment of wrangler.toml:\n[[env.staging.kv_namespaces]]\nbinding = "my_ns"\nid = "${sid}"\n`
    )
    expect(json<{ title: string }>(kv("namespace", "create", "my-ns", "--env", "production", "--json")).title).toBe(
      "prod-worker-my-ns"
    )
    const titles = json<Array<{ title: string }>>(kv("namespace", "list")).map((n) => n.title)
    expect(titles).toEqual(
      expect.arrayContaining([
        "my-worker-my-ns",
        "my-worker-my-ns_preview",
        "my-worker-staging-my-ns",
        "prod-worker-my-ns"
      ])
    )
  })

  it("namespace delete through a binding (the binding's id; --preview picks its preview_id)", () => {
    const dir = project({})
    const kv2 = run(dir)
    const a = json<{ id: string; title: string }>(kv2("namespace", "create", "gone", "--json"))
    const b = json<{ id: string; title: string }>(kv2("namespace", "create", "gone", "--preview", "--json"))
    fs.writeFileSync(
      path.join(dir, "wrangler.toml"),
      `kv_namespaces = [{ binding = "GONE", id = "${a.id}", preview_id = "${b.id}" }]\n`
    )
    expect(kv2("namespace", "delete", "--binding", "GONE", "--yes").status).toBe(1)
    expect(kv2("namespace", "delete", "--binding", "GONE", "--preview", "--yes").stdout).toBe(
      `Deleted KV namespace "worker-gone_preview" (id ${b.id}).\n`
    )
    expect(kv2("namespace", "delete", "--binding", "GONE", "--preview", "false", "--yes").stdout).toBe(
      `Deleted KV namespace "worker-gone" (id ${a.id}).\n`
    )
    expect(json<Array<{ id: string }>>(kv2("namespace", "list")).filter((n) => n.id === a.id || n.id === b.id)).toEqual(
      []
    )
  })
})

describe("wrangler.jsonc and wrangler.json", () => {
  it("reads comments and trailing commas; the snippet is JSON", () => {
    const kv = run(project({ "wrangler.jsonc": Jsonc }))
    kv("key", "put", "j", "v", "--binding", "MY_KV", "--preview")
    expect(holder(kv, "j", ["json-prod", "json-preview"])).toEqual(["json-preview"])
    expect(kv("key", "get", "j", "--binding", "MY_KV", "--preview=true").stdout).toBe("v")
    kv("key", "put", "js", "v", "--binding", "MY_KV", "--env", "staging")
    expect(holder(kv, "js", ["json-prod", "json-staging"])).toEqual(["json-staging"])
    const created = kv("namespace", "create", "cache", "--env", "staging")
    const id = /\(id ([0-9a-f]{32})\)/.exec(created.stdout)![1]!
    expect(created.stdout).toContain(`"json-worker-staging-cache"`)
    expect(created.stdout).toContain(`Add it to the "staging" environment of wrangler.jsonc:\n`)
    const snippet = created.stdout.slice(created.stdout.indexOf("{"))
    expect(JSON.parse(snippet)).toEqual({ env: { staging: { kv_namespaces: [{ binding: "cache", id }] } } })
  })

  it("wrangler.json wins over wrangler.toml; --config names another file", () => {
    const dir = project({
      "wrangler.json": JSON.stringify({ kv_namespaces: [{ binding: "B", id: "from-json" }] }),
      "wrangler.toml": 'kv_namespaces = [{ binding = "B", id = "from-toml" }]\n',
      "conf/other.toml": 'kv_namespaces = [{ binding = "B", id = "from-other" }]\n'
    })
    const kv = run(dir)
    expect(kv("key", "put", "w", "v", "--binding", "B").stdout).toContain("(from-json)")
    expect(kv("key", "put", "w", "v", "--binding", "B", "--config", "conf/other.toml").stdout).toContain("(from-other)")
    expect(kv("key", "put", "w", "v", "--binding", "B", "-c", "conf/missing.toml").stderr).toContain(
      "error: kv key put: cannot read conf/missing.toml: no such file"
    )
  })
})

describe("config errors", () => {
  it("--binding without a config file points at --namespace-id", () => {
    const dir = project({})
    const r = run(dir)("key", "get", "k", "--binding", "MY_KV")
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(
      `error: kv key get: --binding MY_KV: there is no wrangler.json, wrangler.jsonc, wrangler.toml in ${dir}; run in the project directory, pass --config, or use --namespace-id`
    )
  })

  it("a file that does not parse, and entries of the wrong shape, name the file and the place", () => {
    const broken = run(project({ "wrangler.toml": 'name = "x"\nkv_namespaces = [ { binding = \n' }))(
      "key",
      "get",
      "k",
      "--binding",
      "B"
    )
    expect(broken.status).toBe(1)
    expect(broken.stderr).toMatch(/^error: kv key get: wrangler\.toml:\d+:\d+: /)
    const jsonc = run(project({ "wrangler.jsonc": '{ "kv_namespaces": [ { "binding": "B", } ' }))(
      "key",
      "get",
      "k",
      "--binding",
      "B"
    )
    expect(jsonc.stderr).toMatch(/^error: kv key get: wrangler\.jsonc:1:\d+: expected '\]'/)
    const shape = run(project({ "wrangler.toml": 'kv_namespaces = [{ binding = "B", id = 42 }]\n' }))(
      "key",
      "get",
      "k",
      "--binding",
      "B"
    )
    expect(shape.stderr).toContain(
      "error: kv key get: wrangler.toml: kv_namespaces[0].id must be a string, got a number"
    )
    const noBinding = run(project({ "wrangler.toml": 'kv_namespaces = [{ id = "x" }]\n' }))(
      "key",
      "get",
      "k",
      "--binding",
      "B"
    )
    expect(noBinding.stderr).toContain('wrangler.toml: kv_namespaces[0] has no "binding"')
  })

  it("--namespace-id needs no config, and a broken config does not matter to it in local mode", () => {
    const kv = run(project({ "wrangler.toml": "this is not toml" }))
    expect(kv("key", "put", "k", "v", "--namespace-id", "no-config").status).toBe(0)
  })
})
