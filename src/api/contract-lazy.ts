/**
 * The contract's parts built on first use. A command calls one or two endpoints, yet a contract
 * module built every endpoint, query-parameter schema, group and API of its area when it was
 * imported: effect's schema combinators and HttpApiEndpoint's builders create classes and unions at
 * each step, ~2-3 ms of a cold start per area (contract-core's parameters alone ~1.8 ms). Each is
 * now made when it is first read, then kept: the same values, only built later.
 */

/** `make()` on the first call, the same value on every call after. */
export const lazily = <A>(make: () => A): (() => A) => {
  let made = false
  let value: A
  return () => {
    if (!made) {
      value = make()
      made = true
    }
    return value
  }
}

/**
 * An object whose properties are built on first read, each by its thunk (`Endpoints.listZones`
 * builds that endpoint alone); enumerating the object builds them all.
 */
export const lazyRecord = <T extends Record<string, () => unknown>>(
  thunks: T
): { readonly [K in keyof T]: ReturnType<T[K]> } => {
  const record = {} as { [K in keyof T]: ReturnType<T[K]> }
  for (const key of Object.keys(thunks) as Array<keyof T & string>) {
    const get = lazily(thunks[key]! as () => ReturnType<T[typeof key]>)
    Object.defineProperty(record, key, { enumerable: true, get })
  }
  return record
}
