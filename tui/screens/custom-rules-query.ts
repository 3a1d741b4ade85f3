/**
 * useEffectQuery for one zone's data (its custom rules, its migration preview): an answer read for
 * another zone counts as loading. The same panel handed another zone renders once with the old
 * zone's answer before its new read starts; that frame must not draw one zone's rules under
 * another's name (issue 14's rule).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { fromUnknown } from "../errors.js"
import { useEffectQuery, type Query, type Services } from "../runtime.js"

export function useZoneQuery<A, E>(
  zoneId: string,
  make: () => Effect.Effect<A, E, Services>
): { readonly query: Query<A>; readonly refresh: () => void } {
  const { query, refresh } = useEffectQuery(
    () => Effect.map(Effect.either(make()), (result) => ({ zoneId, result })),
    [zoneId]
  )
  if (query._tag !== "Success") return { query, refresh }
  const { zoneId: of, result } = query.value
  if (of !== zoneId) return { query: { _tag: "Loading" }, refresh }
  return {
    query: Either.isRight(result)
      ? { _tag: "Success", value: result.right }
      : { _tag: "Failure", error: fromUnknown(result.left) },
    refresh
  }
}
