/**
 * The demo world's key-value data, so that the KV screen and `edgectl kv` have something to show on
 * first run: namespaces of Acme Corp and Globex with text, JSON, binary, expiring and annotated
 * values, and enough session keys to page through. Deterministic: ids come from titles, and
 * expirations are fixed dates.
 */
import type Database from "better-sqlite3"
import { hexId } from "../domain/ids.js"
import { createNamespace, putEntries } from "../store/kv-repo.js"
import type { WriteEntry } from "../kv/entry-checks.js"

/** 2030-01-01T00:00:00Z and 2031-06-30T00:00:00Z. */
const In2030 = 1_893_456_000
const In2031 = 1_940_630_400

const text = (key: string, value: string, extra: Partial<Omit<WriteEntry, "key" | "value">> = {}): WriteEntry => ({
  key,
  value: Buffer.from(value, "utf8"),
  metadata: null,
  expiration: null,
  ...extra
})

const json = (key: string, value: unknown, extra: Partial<Omit<WriteEntry, "key" | "value">> = {}) =>
  text(key, JSON.stringify(value), extra)

/** The id of a demo namespace (the same on every machine). */
export const demoNamespaceId = (account: string, title: string) => hexId("kv-namespace", account, title)

interface DemoNamespace {
  readonly account: string
  readonly title: string
  readonly entries: () => ReadonlyArray<WriteEntry>
}

const DemoNamespaces: ReadonlyArray<DemoNamespace> = [
  {
    account: "Acme Corp",
    title: "acme-web-config",
    entries: () => [
      json(
        "config/site",
        { name: "Acme", theme: "dark", maintenance: false, regions: ["eu", "us"] },
        { metadata: '{"owner":"web-team","schema":2}' }
      ),
      json("config/redirects", [{ from: "/old", to: "/new", status: 301 }]),
      text("banner", "Spring sale: 20% off everything until Friday!", { expiration: In2030 }),
      text("robots.txt", "User-agent: *\nDisallow: /admin\n"),
      {
        key: "favicon.png",
        value: Buffer.from("89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61", "hex"),
        metadata: '{"content-type":"image/png"}',
        expiration: null
      }
    ]
  },
  {
    account: "Acme Corp",
    title: "acme-feature-flags",
    entries: () => [
      json("flag:new-checkout", { enabled: true, rollout: 25 }, { metadata: '{"updated_by":"ada"}' }),
      json("flag:dark-mode", { enabled: false }),
      json("flag:beta-search", { enabled: true, rollout: 100 }, { expiration: In2031 })
    ]
  },
  {
    account: "Acme Corp",
    title: "acme-sessions",
    entries: () =>
      Array.from({ length: 240 }, (_, i) =>
        json(
          `session:${String(i + 1).padStart(4, "0")}`,
          { user: `user-${(i * 7919) % 1000}`, cart: i % 5 },
          { expiration: In2030 + i * 60, metadata: `{"ip":"203.0.113.${(i % 250) + 1}"}` }
        )
      )
  },
  {
    account: "Globex",
    title: "globex-translations",
    entries: () => [
      text("en/hello", "Hello"),
      text("de/hello", "Hallo"),
      text("ja/hello", "こんにちは"),
      text("fr/hello", "Bonjour")
    ]
  }
]

/** Seeds the demo namespaces (with the 0003_kv migration; skipped for an account the store lacks). */
export const seedKv = (db: Database.Database): void => {
  for (const ns of DemoNamespaces) {
    const accountId = hexId("account", ns.account)
    if (db.prepare("SELECT 1 FROM accounts WHERE id = ?").get(accountId) === undefined) continue
    const row = createNamespace(db, accountId, ns.title, {
      id: demoNamespaceId(ns.account, ns.title),
      createdOn: "2024-01-15T09:30:00.000000Z"
    })
    putEntries(db, row.seq, ns.entries(), 0)
  }
}
