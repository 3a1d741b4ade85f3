/**
 * `edgectl dns create|edit|delete` (the writes the TUI's DNS tab makes too, through the same service
 * functions): `--dry-run` prints the exact request and writes nothing; the platform names the field
 * of a bad record; a delete asks, and off a terminal refuses with a command that runs as printed.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"

interface Row {
  readonly id: string
  readonly type: string
  readonly name: string
  readonly content: string
  readonly ttl: number
  readonly comment: string | null
}

describe("dns create, edit and delete", () => {
  let dir: string
  let zoneId: string
  const on = () => ["--persist-to", dir]
  const records = async () => {
    const r = await edgectlAsync(["dns", "list", "acme-shop.com", "--name", "cli-", "--json", ...on()])
    expect(r.status, r.stderr).toBe(0)
    return json<Array<Row>>(r)
  }
  beforeAll(async () => {
    dir = tempDir("edgectl-dns-cli-")
    const z = await edgectlAsync(["zones", "get", "acme-shop.com", "--json", ...on()])
    zoneId = json<{ id: string }>(z).id
  })

  it("--dry-run prints the POST and its body and creates nothing; without it the record is there", async () => {
    const args = ["dns", "create", "acme-shop.com", "--type", "mx", "--name", "cli-mail", "--content", "mx.example"]
    const dry = await edgectlAsync([...args, "--priority", "10", "--dry-run", ...on()])
    expect(dry.status, dry.stderr).toBe(0)
    expect(dry.stdout).toBe(
      [
        "Dry run: nothing was changed. It would send 1 request:",
        "",
        `POST /zones/${zoneId}/dns_records`,
        "{",
        '  "type": "MX",',
        '  "name": "cli-mail",',
        '  "content": "mx.example",',
        '  "priority": 10',
        "}",
        ""
      ].join("\n")
    )
    expect(await records()).toEqual([])
    const made = await edgectlAsync([...args, "--priority", "10", "--json", ...on()])
    expect(made.status, made.stderr).toBe(0)
    expect(await records()).toEqual([
      expect.objectContaining({ type: "MX", name: "cli-mail.acme-shop.com", content: "mx.example", ttl: 1 })
    ])
    // An MX needs its priority: the platform says which field.
    const bad = await edgectlAsync([
      "dns",
      "create",
      "acme-shop.com",
      "--type",
      "MX",
      "--name",
      "cli-x",
      "--content",
      "mx.example",
      ...on()
    ])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain("error: dns create: priority: required for MX records, got nothing")
  })

  it("an address record's content must be an address of its family; nothing is created otherwise", async () => {
    for (const [type, content, family] of [
      ["A", "999.1.1.1", "an A record's content must be an IPv4 address"],
      ["A", "2001:db8::1", "an A record's content must be an IPv4 address"],
      ["AAAA", "192.0.2.1", "an AAAA record's content must be an IPv6 address"]
    ] as const) {
      const r = await edgectlAsync([
        "dns",
        "create",
        "acme-shop.com",
        "--type",
        type,
        "--name",
        "addr-check",
        "--content",
        content,
        ...on()
      ])
      expect({ status: r.status, stdout: r.stdout, error: r.stderr.split("\n")[0] }).toEqual({
        status: 1,
        stdout: "",
        error: `error: dns create: content: ${family}, got "${content}" [code 1004]`
      })
    }
    const named = async () => {
      const r = await edgectlAsync(["dns", "list", "acme-shop.com", "--name", "addr-check", "--json", ...on()])
      return json<Array<Row>>(r).map((x) => [x.type, x.content])
    }
    expect(await named()).toEqual([])
    const ok = await edgectlAsync([
      "dns",
      "create",
      "acme-shop.com",
      "--type",
      "AAAA",
      "--name",
      "addr-check",
      "--content",
      "2001:db8::1",
      ...on()
    ])
    expect(ok.status, ok.stderr).toBe(0)
    expect(await named()).toEqual([["AAAA", "2001:db8::1"]])
  })

  it("edit sends only the fields given; a bad TTL is refused naming the field, the limit and the value", async () => {
    const id = (await records())[0]!.id
    const dry = await edgectlAsync(["dns", "edit", "acme-shop.com", id, "--ttl", "300", "--dry-run", ...on()])
    expect(dry.stdout).toContain(`PATCH /zones/${zoneId}/dns_records/${id}\n{\n  "ttl": 300\n}`)
    const bad = await edgectlAsync(["dns", "edit", "acme-shop.com", id, "--ttl", "7", ...on()])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain("ttl: must be 1 (automatic) or from 60 to 86400 seconds, got 7")
    const ok = await edgectlAsync(["dns", "edit", "acme-shop.com", id, "--ttl", "300", "--comment", "a note", ...on()])
    expect(ok.status, ok.stderr).toBe(0)
    expect((await records())[0]).toMatchObject({ ttl: 300, comment: "a note", content: "mx.example" })
    const none = await edgectlAsync(["dns", "edit", "acme-shop.com", id, ...on()])
    expect(none.status).toBe(2)
    expect(none.stderr).toContain("give at least one of --type")
  })

  it("delete asks; off a terminal it refuses with a command that runs as printed; --yes deletes", async () => {
    const id = (await records())[0]!.id
    const refused = await edgectlAsync(["dns", "delete", "acme-shop.com", id, ...on()])
    expect(refused.status).toBe(1)
    const hint = /^hint: (edgectl .*)$/m.exec(refused.stderr)?.[1]
    expect(hint).toBe(`edgectl dns delete acme-shop.com ${id} --yes --persist-to ${dir}`)
    expect(await records()).toHaveLength(1)
    const gone = await edgectlAsync([...hint!.split(" ").slice(1)])
    expect(gone.status, gone.stderr).toBe(0)
    expect(await records()).toEqual([])
    const again = await edgectlAsync(["dns", "delete", "acme-shop.com", id, "--yes", ...on()])
    expect(again.status).toBe(1)
    expect(again.stderr).toContain(`hint: run \`edgectl dns list acme-shop.com --persist-to ${dir}\``)
  })
})
