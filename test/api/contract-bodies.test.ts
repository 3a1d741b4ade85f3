/**
 * The contract types every body (issue 32): each write endpoint declares its payload with a domain
 * schema, so the compiler checks the body of every call as it checks its path and query. Where the
 * server reads a body itself to name every problem in one answer, the route is raw on the server
 * side (`handleRaw`) and the schema still types what the client sends. Only the bodies sent as
 * bytes (a KV value, a serialized bulk array) declare none: the client sends them as a `RawBody`.
 */
import type * as AST from "effect/SchemaAST"
import { describe, expect, it } from "vitest"
import { V4Api } from "../../src/api/contract.js"

/** Writes whose body is bytes the client sends as they are (call-types.ts `RawBody`), not a JSON value. */
const bytesBodies = new Set([
  "PUT /client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/values/:key_name",
  "PUT /client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/bulk",
  "DELETE /client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/bulk",
  "POST /client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/bulk/delete"
])

/** Where a schema leaves a value untyped (`Schema.Unknown` or `Schema.Any`), as a path into it. */
const untyped = (ast: AST.AST, at: string, seen = new Set<AST.AST>()): Array<string> => {
  if (seen.has(ast)) return []
  seen.add(ast)
  switch (ast._tag) {
    case "UnknownKeyword":
    case "AnyKeyword":
      return [at]
    case "TypeLiteral":
      return [
        ...ast.propertySignatures.flatMap((p) => untyped(p.type, `${at}.${String(p.name)}`, seen)),
        ...ast.indexSignatures.flatMap((s) => untyped(s.type, `${at}[key]`, seen))
      ]
    case "TupleType":
      return [
        ...ast.elements.flatMap((e, i) => untyped(e.type, `${at}[${i}]`, seen)),
        ...ast.rest.flatMap((r) => untyped(r.type, `${at}[]`, seen))
      ]
    case "Union":
      return ast.types.flatMap((t) => untyped(t, at, seen))
    case "Refinement":
      return untyped(ast.from, at, seen)
    // What a caller passes is the Type side: a body decoded by hand from unknown JSON (ESC's) is typed there.
    case "Transformation":
      return untyped(ast.to, at, seen)
    case "Suspend":
      return untyped(ast.f(), at, seen)
    default:
      return []
  }
}

const endpoints = () =>
  Object.values(V4Api().groups).flatMap((group) =>
    Object.values(group.endpoints).map((e) => ({ name: `${e.method} ${e.path}`, endpoint: e }))
  )

describe("the contract's request bodies", () => {
  it("every write endpoint declares a typed body, or sends bytes as they are", () => {
    const writes = endpoints().filter(({ endpoint }) => ["POST", "PUT", "PATCH"].includes(endpoint.method))
    expect(writes.length).toBeGreaterThanOrEqual(28)
    const problems = writes.flatMap(({ name, endpoint }) => {
      const payload = endpoint.payloadSchema
      if (payload._tag === "None") return bytesBodies.has(name) ? [] : [`${name}: declares no body`]
      if (bytesBodies.has(name)) return [`${name}: sends bytes, yet declares a body schema`]
      return untyped(payload.value.ast, "body").map((where) => `${name}: ${where} is untyped`)
    })
    expect(problems).toEqual([])
  })

  it("no endpoint declares an untyped body, a DELETE's included", () => {
    const problems = endpoints().flatMap(({ name, endpoint }) =>
      endpoint.payloadSchema._tag === "Some"
        ? untyped(endpoint.payloadSchema.value.ast, "body").map((where) => `${name}: ${where} is untyped`)
        : []
    )
    expect(problems).toEqual([])
  })

  it("the byte bodies named above are the contract's own endpoints", () => {
    const names = new Set(endpoints().map((e) => e.name))
    expect([...bytesBodies].filter((n) => !names.has(n))).toEqual([])
  })
})
