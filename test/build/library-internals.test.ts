/**
 * Where edgectl relies on a library's internals, each exercised through edgectl's own code, so that
 * a library update that changes them fails here, naming the place, instead of failing a user:
 *
 * - src/cli/options.ts `triState`: the inner option of @effect/cli's `Options.boolean` (its
 *   `WithDefault` node), a boolean option that knows whether it was given;
 * - src/cli/command-line.ts `walkCommand`: the walk over @effect/cli's command descriptors that names
 *   the subcommands of a mistyped one;
 * - src/cli/command-line.ts `checkCommandLine`: the walk over a command's Options descriptors (`Single`
 *   leaves: name, aliases, a flag's `Bool` type, a value's `placeholder`) that names an unknown
 *   option, a flag given an empty value and an option given no value, and over its Args descriptors
 *   (`Single`, `Both`, `WithDefault`, `Variadic` with its `max`) that names a word too many;
 * - src/server/door/local-transport.ts: its copies of @effect/platform's server request (what the app sees)
 *   and client response (what the client gets), which stand in for the web `Request`/`Response`
 *   path of `HttpApiBuilder.toWebHandler` and `FetchHttpClient`;
 * - src/objects/sqlite-binding.ts `nativeGuard`: better-sqlite3's native Database, kept in an own
 *   property of its JS Database named by a private Symbol() (lib/util.js `cppdb`), and the
 *   `nativeBinding` option that accepts the patched addon (build/native/build-sqlite.mjs);
 * - tui/keys.tsx `KeypressProvider`: Ink's `useStdin().internal_eventEmitter`, whose "input"
 *   events carry each read of the terminal whole (Ink's useInput splits and reinterprets them);
 * - src/cli/environment.ts `lazyFileSystem`: a Proxy that forwards each member of @effect/platform's
 *   FileSystem by name, wrapping every one as returning an Effect but `stream`, `watch` (a Stream)
 *   and `sink` (a Sink): a member added to FileSystem must be placed in one of the two.
 */
import * as Args from "@effect/cli/Args"
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Headers from "@effect/platform/Headers"
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Multipart from "@effect/platform/Multipart"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { describe, expect, it } from "vitest"
import { type LocalHandle, makeLocalClient } from "../../src/server/door/local-transport.js"
import { triState } from "../../src/cli/options.js"
import { nativeGuard, openObjectSqlite } from "../../src/objects/sqlite-binding.js"
import { cliEnvironment } from "../../src/cli/environment.js"
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { render } from "ink-testing-library"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { createElement } from "react"
import { KeypressProvider, useKeys, KeyLayer, type Keypress } from "../../tui/keys.js"
import { edgectlAsync } from "../helpers/cli.js"

describe("src/cli/options.ts triState: the inner option of @effect/cli's Options.boolean", () => {
  const parse = <A>(o: Options.Options<A>, args: ReadonlyArray<string>) =>
    Effect.runPromise(
      Options.processCommandLine(o, args, CliConfig.defaultConfig).pipe(
        Effect.map(([error, rest, value]) => ({ error: Option.isSome(error), rest, value })),
        Effect.provide(NodeContext.layer)
      )
    )

  it("parses as Options.boolean does, but an absent flag is None instead of false", async () => {
    // triState throws, naming @effect/cli, when Options.boolean is no longer a default over an option.
    const tri = triState("internals-flag", "a flag for this test")
    const plain = Options.boolean("internals-flag")
    const lines: Array<ReadonlyArray<string>> = [
      ["--internals-flag"],
      ["--internals-flag", "false"],
      ["--internals-flag", "true"],
      ["--internals-flag=no"],
      ["--internals-flag=on"],
      ["--internals-flag", "rest"]
    ]
    for (const args of lines) {
      const [a, b] = [await parse(tri, args), await parse(plain, args)]
      expect({ ...a, value: Option.getOrUndefined(a.value) }, `triState on ${args.join(" ")}`).toEqual(b)
      expect(Option.isSome(a.value), `triState on ${args.join(" ")} is given`).toBe(true)
    }
    expect((await parse(tri, [])).value).toEqual(Option.none())
    expect((await parse(plain, [])).value).toBe(false)
  })
})

describe("src/cli/command-line.ts walkCommand: the walk over @effect/cli's command descriptors", () => {
  /** The descriptor nodes as command-line.ts reads them (see its `Node`). */
  interface Node {
    readonly _tag: string
    readonly name?: string
    readonly command?: Node
    readonly parent?: Node
    readonly children?: ReadonlyArray<Node>
  }

  it("a command with subcommands is a Subcommands node over its parent and children (Map nodes wrap)", () => {
    const leaf = Command.make("leaf", {}, () => Effect.void)
    const group = Command.make("group").pipe(
      Command.withDescription("a group"),
      Command.withSubcommands([leaf, Command.make("other", {}, () => Effect.void)])
    )
    const root = Command.make("root").pipe(Command.withSubcommands([group]))
    const shape = "@effect/cli's command descriptor changed: src/cli/command-line.ts (walkCommand) reads"
    const unwrap = (n: Node): Node => (n._tag === "Map" ? unwrap(n.command!) : n)
    const top = unwrap(root.descriptor as unknown as Node)
    expect(top._tag, `${shape} _tag "Subcommands" on a command with subcommands`).toBe("Subcommands")
    expect(unwrap(top.parent!).name, `${shape} .parent.name`).toBe("root")
    expect(Array.isArray(top.children), `${shape} .children, an array`).toBe(true)
    const child = unwrap(top.children![0]!)
    expect(child._tag, `${shape} _tag "Subcommands" on a nested group`).toBe("Subcommands")
    expect(unwrap(child.parent!).name, `${shape} the nested group's .parent.name`).toBe("group")
    expect(
      child.children!.map((c) => unwrap(c)).map((c) => [c._tag, c.name]),
      `${shape} leaves as Standard nodes with their name`
    ).toEqual([
      ["Standard", "leaf"],
      ["Standard", "other"]
    ])
  })

  it("every command group of edgectl names its subcommands, as @effect/cli's help lists them", async () => {
    const help = await edgectlAsync(["--help"])
    expect(help.status).toBe(0)
    // `  - kv namespace create [--json] …`: the command's words, up to its first option or argument.
    const paths = help.stdout
      .split("\n")
      .map((l) => /^\s*- ((?:[a-z][\w-]*)(?: [a-z][\w-]*)*)(?: |$)/.exec(l)?.[1])
      .filter((p): p is string => p !== undefined)
    const groups = new Map<string, Array<string>>()
    for (const p of paths) {
      const words = p.split(" ")
      if (words.length < 2) continue
      const parent = words.slice(0, -1).join(" ")
      groups.set(parent, [...(groups.get(parent) ?? []), words.at(-1)!])
    }
    expect([...groups.keys()]).toEqual(expect.arrayContaining(["zones", "kv", "kv namespace", "firewall rules"]))
    for (const [group, children] of groups) {
      const r = await edgectlAsync([...group.split(" "), "no-such-command"])
      expect(
        { status: r.status, stderr: r.stderr },
        `edgectl ${group} no-such-command: the walk over @effect/cli's descriptors (src/cli/command-line.ts walkCommand) should name ${group}'s subcommands`
      ).toEqual({
        status: 2,
        stderr: `error: unknown command "${group} no-such-command" (edgectl ${group} has: ${children.join(", ")})\n`
      })
    }
  })
})

describe("src/cli/command-line.ts checkCommandLine: the walk over @effect/cli's Options descriptors", () => {
  /** The option nodes as command-line.ts reads them (see its `OptionNode`). */
  interface OptionNode {
    readonly _tag: string
    readonly name?: string
    readonly aliases?: ReadonlyArray<string>
    readonly options?: OptionNode
    readonly left?: OptionNode
    readonly right?: OptionNode
    readonly argumentOption?: OptionNode
    readonly primitiveType?: { readonly _tag: string }
    readonly placeholder?: string
  }

  it("a command's options are a tree whose Single leaves carry name, aliases, type and placeholder", () => {
    const command = Command.make(
      "x",
      {
        zone: Options.text("zone").pipe(Options.withPseudoName("ZONE"), Options.optional),
        count: Options.text("count"),
        yes: Options.boolean("yes").pipe(Options.withAlias("force")),
        paused: triState("paused", "a tri-state flag")
      },
      () => Effect.void
    )
    const shape = "@effect/cli's Options descriptor changed: src/cli/command-line.ts (checkCommandLine) reads"
    const unwrap = (n: { _tag: string; command?: unknown }): { _tag: string; options?: OptionNode } =>
      n._tag === "Map" ? unwrap(n.command as { _tag: string }) : n
    const leaf = unwrap(command.descriptor as unknown as { _tag: string })
    expect(leaf._tag, `${shape} _tag "Standard" on a command without subcommands`).toBe("Standard")
    const singles: Array<OptionNode> = []
    const walk = (o: OptionNode | undefined) => {
      if (o === undefined || typeof o !== "object") return
      if (o._tag === "Single") singles.push(o)
      for (const child of [o.options, o.left, o.right, o.argumentOption]) walk(child)
    }
    walk(leaf.options)
    expect(
      singles.map((o) => [o.name, [...(o.aliases ?? [])], o.primitiveType?._tag, o.placeholder]),
      `${shape} Single leaves (name, aliases, primitiveType._tag, placeholder) under .options/.left/.right/.argumentOption`
    ).toEqual([
      ["zone", [], "Text", "ZONE"],
      ["count", [], "Text", "text"],
      ["yes", ["force"], "Bool", "boolean"],
      ["paused", [], "Bool", "boolean"]
    ])
  })

  it("a command's arguments are a tree of Single, Both, WithDefault (optional) and Variadic (min, max) nodes", () => {
    interface ArgsNode {
      readonly _tag: string
      readonly name?: string
      readonly args?: ArgsNode
      readonly left?: ArgsNode
      readonly right?: ArgsNode
      readonly min?: { readonly _tag?: string; readonly value?: number }
      readonly max?: { readonly _tag?: string; readonly value?: number }
    }
    const command = Command.make(
      "x",
      {
        key: Args.text({ name: "key" }),
        value: Args.optional(Args.text({ name: "value" })),
        files: Args.repeated(Args.text({ name: "file" })),
        two: Args.atMost(Args.text({ name: "id" }), 2),
        some: Args.atLeast(Args.text({ name: "tag" }), 1)
      },
      () => Effect.void
    )
    const shape = "@effect/cli's Args descriptor changed: src/cli/command-line.ts (positionals) reads"
    const unwrap = (n: { _tag: string; command?: unknown }): { _tag: string; args?: ArgsNode } =>
      n._tag === "Map" ? unwrap(n.command as { _tag: string }) : n
    const seen: Array<string> = []
    const walk = (a: ArgsNode | undefined): void => {
      if (a === undefined) return
      if (a._tag === "Single") return void seen.push(a.name ?? "")
      if (a._tag === "Both") {
        walk(a.left)
        return walk(a.right)
      }
      if (a._tag === "WithDefault") seen.push("optional:")
      const bound = (o: ArgsNode["max"]) => (o?._tag === "Some" ? String(o.value) : "none")
      if (a._tag === "Variadic") seen.push(`variadic ${bound(a.min)}..${bound(a.max)}:`)
      walk(a.args)
    }
    walk(unwrap(command.descriptor as unknown as { _tag: string }).args)
    expect(seen, `${shape} these tags, .left/.right/.args, a Single's name, a Variadic's min and max`).toEqual([
      "<key>",
      "optional:",
      "<value>",
      "variadic none..none:",
      "<file>",
      "variadic none..2:",
      "<id>",
      "variadic 1..none:",
      "<tag>"
    ])
  })
})

describe("src/server/door/local-transport.ts: its copies of @effect/platform's server request and client response", () => {
  const url = "http://platform.local/client/v4/zones?name=acme.com"
  const answer = {
    status: 201,
    headers: { "content-type": "application/json", "x-answer": "yes" },
    body: '{"success":true,"result":{"id":"z1"}}'
  }
  const encoder = new TextEncoder()

  // Trace headers differ from request to request.
  const untraced = (c: HttpClient.HttpClient) => HttpClient.withTracerPropagation(c, false)

  /** What the platform's app sees and what the client gets, through the local transport. */
  const viaLocal = async (request: HttpClientRequest.HttpClientRequest) => {
    let seen: HttpServerRequest.HttpServerRequest | undefined
    const body = encoder.encode(answer.body)
    const handle: LocalHandle = (serverRequest) => {
      seen = serverRequest
      const response = HttpServerResponse.uint8Array(body, {
        status: answer.status,
        headers: Headers.fromInput(answer.headers),
        contentType: answer.headers["content-type"]
      })
      return Promise.resolve({ response, body })
    }
    const response = await Effect.runPromise(untraced(makeLocalClient(handle)).execute(request))
    return { request: seen!, response }
  }

  /** The same through @effect/platform's own path: FetchHttpClient's web Request, read by HttpServerRequest.fromWeb. */
  const viaWeb = async (request: HttpClientRequest.HttpClientRequest) => {
    let seen: HttpServerRequest.HttpServerRequest | undefined
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      seen = HttpServerRequest.fromWeb(new Request(input, init))
      return Promise.resolve(new Response(answer.body, { status: answer.status, headers: answer.headers }))
    }
    const response = await Effect.runPromise(
      Effect.flatMap(HttpClient.HttpClient, (c) => untraced(c).execute(request)).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.provideService(FetchHttpClient.Fetch, fetch as typeof globalThis.fetch)
      )
    )
    return { request: seen!, response }
  }

  /** A value as JSON: an error embeds its request or response, compared by the library's toJSON of it. */
  const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown
  const run = <A, E>(e: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(e))
  /** A body as a stream (read first: a web body read one way cannot be read another). */
  const streamed = (s: Stream.Stream<Uint8Array, unknown>) =>
    run(Effect.map(Stream.runCollect(s), (c) => Buffer.concat(Chunk.toReadonlyArray(c)).toString("latin1")))
  /** The members of an object and its prototypes (a library's getters and methods live there). */
  const members = (o: object) => {
    const names = new Set<string>()
    for (let p: object | null = o; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null)
      for (const k of Reflect.ownKeys(p)) names.add(String(k))
    return names
  }
  const without = (a: Set<string>, b: Set<string>) => [...a].filter((k) => !b.has(k)).sort()

  const text = (b: ArrayBuffer) => Buffer.from(b).toString("latin1")
  /**
   * What the app reads of a request, each body accessor on a request of its own (a web body read
   * one way cannot be read another; the copy's can, which the app never relies on).
   */
  const serverReads: Record<string, (r: HttpServerRequest.HttpServerRequest) => Promise<unknown>> = {
    fields: async (r) => ({
      method: r.method,
      url: r.url,
      originalUrl: r.originalUrl,
      headers: Headers.remove(r.headers, "content-length"),
      cookies: r.cookies,
      remoteAddress: r.remoteAddress,
      modified: { url: r.modify({ url: "/other" }).url, headers: r.modify({ headers: Headers.empty }).headers }
    }),
    text: (r) => run(r.text),
    json: (r) => run(r.json),
    urlParamsBody: (r) => run(r.urlParamsBody),
    arrayBuffer: (r) => run(Effect.map(r.arrayBuffer, text)),
    stream: (r) => streamed(r.stream)
  }
  /** What the client reads of a response, the same way. */
  const clientReads: Record<string, (r: HttpClientResponse.HttpClientResponse) => Promise<unknown>> = {
    fields: async (r) => ({
      status: r.status,
      headers: Headers.remove(r.headers, "content-length"),
      cookies: r.cookies,
      remoteAddress: r.remoteAddress
    }),
    text: (r) => run(r.text),
    json: (r) => run(r.json),
    urlParamsBody: (r) => run(r.urlParamsBody),
    arrayBuffer: (r) => run(Effect.map(r.arrayBuffer, text)),
    stream: (r) => streamed(r.stream)
  }

  const form = new FormData()
  form.append("field", "value")
  form.append("file", new Blob(["file body"], { type: "text/plain" }), "a.txt")
  const requests: ReadonlyArray<readonly [string, HttpClientRequest.HttpClientRequest]> = [
    ["a GET with a cookie", HttpClientRequest.get(url, { headers: { cookie: "a=1; b=2", authorization: "Bearer t" } })],
    ["a JSON body", HttpClientRequest.bodyUnsafeJson(HttpClientRequest.post(url), { name: "shop", n: [1, 2] })],
    ["a text body", HttpClientRequest.bodyText(HttpClientRequest.put(url), "plain words", "text/plain")],
    [
      "URL parameters",
      HttpClientRequest.bodyUrlParams(HttpClientRequest.post(url), [
        ["a", "1"],
        ["b", "x y"]
      ])
    ],
    [
      "a stream",
      HttpClientRequest.bodyStream(
        HttpClientRequest.post(url),
        Stream.make(encoder.encode("one,"), encoder.encode("two")),
        { contentType: "text/csv" }
      )
    ],
    ["a raw string", HttpClientRequest.post(url).pipe(HttpClientRequest.setBody(HttpBody.raw("raw text")))]
  ]

  it("the request the app sees has the library request's members and reads the same, for every kind of body", async () => {
    for (const [what, request] of requests) {
      for (const [name, read] of Object.entries(serverReads)) {
        const [local, web] = [await viaLocal(request), await viaWeb(request)]
        expect(plain(await read(local.request)), `${what}: the app reads the request's ${name}`).toEqual(
          plain(await read(web.request))
        )
      }
      const [local, web] = [await viaLocal(request), await viaWeb(request)]
      // Implementation details of the library's class (its caches), which the copy needs not have
      // (the copy caches the decoded text under the library's own name, `textEffect`).
      expect(
        without(members(web.request), members(local.request)),
        "members of @effect/platform's server request that LocalServerRequest (src/server/door/local-transport.ts) lacks"
      ).toEqual(["arrayBufferEffect", "headersOverride", "remoteAddressOverride"])
    }
  })

  it("a multipart body reaches the app as the same parts", async () => {
    const request = HttpClientRequest.bodyFormData(HttpClientRequest.post(url), form)
    const parts = async (r: HttpServerRequest.HttpServerRequest) =>
      Effect.runPromise(
        Effect.map(
          Stream.runCollect(
            Stream.mapEffect(r.multipartStream, (p): Effect.Effect<Record<string, string>, Multipart.MultipartError> =>
              Multipart.isFile(p)
                ? Effect.map(Stream.runCollect(p.content), (c) => ({
                    file: p.key,
                    name: p.name,
                    type: p.contentType,
                    body: Buffer.concat(Chunk.toReadonlyArray(c)).toString()
                  }))
                : Effect.succeed({ field: p.key, value: (p as Multipart.Field).value })
            )
          ),
          Chunk.toReadonlyArray
        )
      )
    const [local, web] = [await viaLocal(request), await viaWeb(request)]
    expect(await parts(local.request), "multipart parts through LocalServerRequest").toEqual(await parts(web.request))
  })

  it("the response the client gets has the library response's members and reads the same", async () => {
    const request = HttpClientRequest.get(url)
    for (const [name, read] of Object.entries(clientReads)) {
      const [local, web] = [await viaLocal(request), await viaWeb(request)]
      expect(plain(await read(local.response)), `the client reads the response's ${name}`).toEqual(
        plain(await read(web.response))
      )
    }
    const [local, web] = [await viaLocal(request), await viaWeb(request)]
    // HttpClient.execute hands out the transport's response wrapped (for interruption): the copy is inside.
    const inner = (r: object) => ("original" in r ? (r.original as object) : r)
    expect(
      without(members(inner(web.response)), members(inner(local.response))),
      "members of @effect/platform's client response that LocalClientResponse (src/server/door/local-transport.ts) lacks"
    ).toEqual(["arrayBufferBody", "cachedCookies", "formDataBody", "source", "textBody"])
  })
})

describe("src/objects/sqlite-binding.ts: better-sqlite3's native handle and nativeBinding option", () => {
  it("a database opened with the patched addon hands out its native Database under a symbol, with edgectl's methods", () => {
    const db = openObjectSqlite(":memory:")
    try {
      const native = nativeGuard(db)
      for (const m of ["edgectlGuardConfigure", "edgectlGuard", "edgectlDoubleQuotedStrings", "edgectlErrorOffset"])
        expect(typeof (native as unknown as Record<string, unknown>)[m], `the native Database's ${m}`).toBe("function")
      // The handle is the one the JS Database uses: a setting made on it shows in SQL run through db.
      native.edgectlDoubleQuotedStrings(true)
      expect(db.prepare('SELECT "no such column" AS v').get()).toEqual({ v: "no such column" })
      native.edgectlDoubleQuotedStrings(false)
      expect(() => db.prepare('SELECT "no such column" AS v')).toThrow(/no such column/)
    } finally {
      db.close()
    }
  })
})

describe("tui/keys.tsx KeypressProvider: Ink's useStdin().internal_eventEmitter", () => {
  it("each read of the terminal reaches the key layers whole and in order, through Ink's input events", async () => {
    const seen: Array<string> = []
    function Probe() {
      useKeys(
        (k: Keypress) => {
          seen.push(k.name)
          return true
        },
        { priority: KeyLayer.screen }
      )
      return null
    }
    const app = render(createElement(KeypressProvider, { onQuit: () => undefined, children: createElement(Probe) }))
    try {
      // KeypressProvider subscribes in an effect: wait until a key gets through.
      const deadline = Date.now() + 5_000
      while (seen.length === 0 && Date.now() < deadline) {
        app.stdin.write("a")
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(seen.length, "keys reach useKeys through Ink's internal_eventEmitter").toBeGreaterThan(0)
      seen.length = 0
      // One read holding three keys: each acts, in order (Ink's useInput would hand "jk" over as one).
      app.stdin.write("jk\u001B[A")
      const until = Date.now() + 5_000
      while (seen.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
      expect(seen).toEqual(["j", "k", "up"])
    } finally {
      app.unmount()
    }
  })
})

describe("src/cli/environment.ts lazyFileSystem: a Proxy over @effect/platform's FileSystem", () => {
  // Members the Proxy hands out as returning a Stream or a Sink; every other one as an Effect.
  const streams = ["sink", "stream", "watch"]
  const effects = [
    "access",
    "chmod",
    "chown",
    "copy",
    "copyFile",
    "exists",
    "link",
    "makeDirectory",
    "makeTempDirectory",
    "makeTempDirectoryScoped",
    "makeTempFile",
    "makeTempFileScoped",
    "open",
    "readDirectory",
    "readFile",
    "readFileString",
    "readLink",
    "realPath",
    "remove",
    "rename",
    "stat",
    "symlink",
    "truncate",
    "utimes",
    "writeFile",
    "writeFileString"
  ]

  it("FileSystem has exactly the members the Proxy knows how to forward", async () => {
    const real = await Effect.runPromise(FileSystem.FileSystem.pipe(Effect.provide(NodeFileSystem.layer)))
    const members = Object.keys(real).filter(
      (k) => typeof (real as unknown as Record<string, unknown>)[k] === "function"
    )
    expect(members.sort(), "a new member of FileSystem: add it to src/cli/environment.ts's Proxy list").toEqual(
      [...streams, ...effects].sort()
    )
  })

  it("reads, writes and streams a file through the CLI's environment as through the real FileSystem", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-fs-proxy-"))
    const file = path.join(dir, "f.txt")
    const out = await Effect.runPromise(
      Effect.gen(function* () {
        const f = yield* FileSystem.FileSystem
        yield* f.writeFileString(file, "hello")
        const exists = yield* f.exists(file)
        const text = yield* f.readFileString(file)
        const streamed = yield* Stream.runCollect(f.stream(file)).pipe(
          Effect.map((c) => Chunk.toReadonlyArray(c).length)
        )
        return { exists, text, streamed }
      }).pipe(Effect.scoped, Effect.provide(cliEnvironment))
    )
    fs.rmSync(dir, { recursive: true, force: true })
    expect(out).toEqual({ exists: true, text: "hello", streamed: 1 })
  })
})
