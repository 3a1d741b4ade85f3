// Namespaces (`env.MY_DO`, `host.namespace("Class")`) and their stubs. A stub has `id`, `name`,
// `fetch()`, and every other property is an RPC method of the object's class (or, awaited without
// a call, its property), as on the platform:
// arguments and results are copied by the structured clone the platform's RPC uses (and refused
// where it refuses them: instances of classes other than the built-in ones), and an error thrown
// by the method is rethrown to the caller with its name (for the standard error types) and
// message, without the remote stack, and with `remote: true`.
import { idFromName, idFromString, newUniqueId, ObjectId } from "./ids.js"

export interface ObjectStub {
  readonly id: ObjectId
  readonly name: string | undefined
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>
  // Any other name: an RPC method of the object's class.
  readonly [method: string]: unknown
}

/** What the stubs of a namespace deliver their calls to (the host). */
export interface StubTarget {
  fetch(className: string, id: ObjectId, request: Request): Promise<Response>
  call(className: string, id: ObjectId, method: string, args: ReadonlyArray<unknown>): Promise<unknown>
  property(className: string, id: ObjectId, name: string): Promise<unknown>
}

export class ObjectNamespace {
  constructor(
    private readonly target: StubTarget,
    readonly className: string
  ) {}
  idFromName(name: string): ObjectId {
    return idFromName(this.className, name)
  }
  idFromString(hex: string): ObjectId {
    return idFromString(hex)
  }
  newUniqueId(): ObjectId {
    return newUniqueId()
  }
  getByName(name: string): ObjectStub {
    return this.get(this.idFromName(name))
  }
  get(id: ObjectId): ObjectStub {
    if (!(id instanceof ObjectId))
      throw new TypeError("get(): expected an id from idFromName(), idFromString() or newUniqueId()")
    const { target, className } = this
    // As on the platform, a stub whose object was reset (ctx.abort(), a failed write, a commit
    // that left constraints violated) fails every later call with that error, fetch() and RPC
    // alike: take a new stub.
    let reset: Error | undefined
    const remember = (e: unknown): never => {
      if ((e as { durableObjectReset?: unknown } | null)?.durableObjectReset === true) reset ??= e as Error
      throw e
    }
    const deliver = <T>(send: () => Promise<T>): Promise<T> =>
      reset !== undefined ? Promise.reject(reset) : send().catch(remember)
    const base = {
      id,
      name: id.name,
      fetch: (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        let request: Request
        try {
          request =
            input instanceof Request && init === undefined
              ? input
              : new Request(
                  typeof input === "string" && !/^[a-z]+:/i.test(input) ? new URL(input, "http://object/") : input,
                  init
                )
        } catch (e) {
          return Promise.reject(e)
        }
        return deliver(() => target.fetch(className, id, request))
      }
    }
    return new Proxy(base, {
      get: (t, prop) => {
        if (typeof prop === "symbol" || Object.hasOwn(t, prop)) return (t as Record<string | symbol, unknown>)[prop]
        // Not thenable: `await stub` is the stub.
        if (prop === "then") return undefined
        const method = (...args: Array<unknown>): Promise<unknown> => {
          let copied: Array<unknown>
          try {
            copied = cloneForRpc(args)
          } catch (e) {
            return Promise.reject(e)
          }
          // The call is delivered after the caller's synchronous code, as a message would be.
          return deliver(() => Promise.resolve().then(() => target.call(className, id, prop, copied)))
        }
        // `await stub.name` reads the property, as the platform's stubs allow.
        return Object.assign(method, {
          then: (resolve?: (v: unknown) => unknown, reject?: (e: unknown) => unknown) =>
            deliver(() => Promise.resolve().then(() => target.property(className, id, prop))).then(resolve, reject)
        })
      }
    }) as ObjectStub
  }
}

// --- values over RPC ------------------------------------------------------------------------

const dataCloneError = (type: string): Error =>
  new DOMException(
    `Could not serialize object of type "${type}". This type does not support serialization.`,
    "DataCloneError"
  )

const copiedAsIs = (v: object): boolean =>
  v instanceof Date ||
  v instanceof RegExp ||
  v instanceof ArrayBuffer ||
  ArrayBuffer.isView(v) ||
  v instanceof Error ||
  v instanceof Boolean ||
  v instanceof Number ||
  v instanceof String

// The platform's serializer takes plain objects, arrays and the built-in value types; an instance
// of any other class (and an object without a prototype) is refused rather than copied as a plain
// object, which structuredClone alone would do.
const check = (v: unknown, seen: Set<object>): void => {
  if (typeof v === "function")
    throw new DOMException(
      "Could not serialize a function: the platform passes it as a stub, which edgectl's object host does not support",
      "DataCloneError"
    )
  if (typeof v !== "object" || v === null || seen.has(v)) return
  seen.add(v)
  if (Array.isArray(v)) {
    for (const x of v) check(x, seen)
    return
  }
  const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null
  if (proto === Object.prototype) {
    for (const x of Object.values(v)) check(x, seen)
    return
  }
  if (v instanceof Map) {
    for (const [k, x] of v) {
      check(k, seen)
      check(x, seen)
    }
    return
  }
  if (v instanceof Set) {
    for (const x of v) check(x, seen)
    return
  }
  if (copiedAsIs(v)) return
  throw dataCloneError(proto === null ? "Object" : (proto.constructor?.name ?? "Object"))
}

/** A copy of `value` as the platform's RPC would deliver it (throws DataCloneError as it would). */
export const cloneForRpc = <T>(value: T): T => {
  check(value, new Set())
  return structuredClone(value)
}

/** An error the RPC method threw (as opposed to one of the host's: a reset, a closed host). */
export class ThrownByMethod {
  constructor(readonly error: unknown) {}
}

/** The caller's copy of what a method threw. */
export const remoteError = (thrown: unknown): unknown => {
  if (!(thrown instanceof Error)) {
    try {
      return cloneForRpc(thrown)
    } catch {
      return new Error(String(thrown))
    }
  }
  let copy: Error
  if (thrown instanceof DOMException) copy = new DOMException(thrown.message, thrown.name)
  else {
    try {
      copy = structuredClone(thrown)
    } catch {
      copy = new Error(thrown.message)
    }
  }
  // The remote stack stays with the object.
  copy.stack = `${copy.name}: ${copy.message}`
  Object.defineProperty(copy, "remote", { value: true, enumerable: true, configurable: true, writable: true })
  return copy
}

/** The method `name` of an object, for an RPC call. */
export const rpcMethod = (object: object, name: string): ((...a: Array<unknown>) => unknown) => {
  const f = name === "constructor" || name in Object.prototype ? undefined : (object as Record<string, unknown>)[name]
  if (typeof f !== "function") throw new TypeError(`The RPC receiver does not implement the method "${name}".`)
  return f as (...a: Array<unknown>) => unknown
}
