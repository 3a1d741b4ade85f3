/**
 * The platform's API budget (1,200 requests per 300 s per user) as a client keeps within it: at
 * most N requests in any S seconds. A slot is taken before a request is sent and comes back S
 * seconds after its answer arrived (or it failed), so however long the requests take on the way,
 * no S-second window of the platform's (counted on arrival) sees more than N of them; a 429's
 * Retry-After stops every request for that long. One budget per process and limit: every command,
 * retry and redirect of one process draws on the same slots (src/api/target.ts gives it to --remote only,
 * never to the in-process platform). `edgectl serve --upstream` keeps one per credential.
 */

export interface RateLimit {
  readonly requests: number
  readonly seconds: number
}

/** The platform's global limit: "More than 1200 requests per 300 seconds". */
export const DefaultRateLimit: RateLimit = { requests: 1200, seconds: 300 }

const Bounds = { requests: { min: 1, max: 1_000_000 }, seconds: { min: 1, max: 86_400 } } as const

/** `N/SECONDS` as a limit, or why it is not one (the caller names the option or variable). */
export const parseRateLimit = (text: string): RateLimit | string => {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  if (m === null) return `expected REQUESTS/SECONDS (e.g. 1200/300), got ${JSON.stringify(text)}`
  const requests = Number(m[1])
  const seconds = Number(m[2])
  if (requests < Bounds.requests.min || requests > Bounds.requests.max)
    return `requests must be from ${Bounds.requests.min} to ${Bounds.requests.max}, got ${requests}`
  if (seconds < Bounds.seconds.min || seconds > Bounds.seconds.max)
    return `seconds must be from ${Bounds.seconds.min} to ${Bounds.seconds.max}, got ${seconds}`
  return { requests, seconds }
}

export const formatRateLimit = (l: RateLimit) => `${l.requests} requests per ${l.seconds} s`

export interface Budget {
  readonly limit: RateLimit
  /**
   * Asks for a slot: `granted` runs (now or later, in the order asked) with the function to call
   * once the request's answer came or it failed. Returns a cancel for a caller that stops waiting.
   */
  readonly acquire: (granted: (done: () => void) => void) => () => void
  /** No request starts for `seconds` from now (the platform answered 429 with this Retry-After). */
  readonly pause: (seconds: number) => void
  /** When the next waiting request may go (epoch ms), or undefined when nothing waits. */
  readonly nextAt: () => number | undefined
}

export const makeBudget = (limit: RateLimit, now: () => number = Date.now): Budget => {
  const windowMs = limit.seconds * 1000
  let inFlight = 0
  // When each returned slot is free again (epoch ms); at most `requests` of them with inFlight.
  const returns: Array<number> = []
  const waiting: Array<(done: () => void) => void> = []
  let pausedUntil = 0
  // A timer only while something waits: an idle budget never keeps the process alive.
  let timer: ReturnType<typeof setTimeout> | undefined

  const freeSlots = (t: number) => {
    while (returns.length > 0 && returns[0]! <= t) returns.shift()
    return limit.requests - inFlight - returns.length
  }
  const grant = (granted: (done: () => void) => void) => {
    inFlight++
    let once = false
    granted(() => {
      if (once) return
      once = true
      inFlight--
      // Returns come in about the order of answers; kept sorted for the front's check.
      const at = now() + windowMs
      let i = returns.length
      while (i > 0 && returns[i - 1]! > at) i--
      returns.splice(i, 0, at)
      drain()
    })
  }
  const nextFree = (t: number): number =>
    Math.max(pausedUntil, freeSlots(t) > 0 ? t : (returns[0] ?? Number.POSITIVE_INFINITY))
  const drain = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const t = now()
    while (waiting.length > 0 && t >= pausedUntil && freeSlots(t) > 0) grant(waiting.shift()!)
    if (waiting.length === 0) return
    const at = nextFree(t)
    // Infinity: every slot is in flight; its answer's `done` drains again.
    if (Number.isFinite(at)) timer = setTimeout(drain, Math.max(1, at - t))
  }
  return {
    limit,
    acquire: (granted) => {
      const t = now()
      if (waiting.length === 0 && t >= pausedUntil && freeSlots(t) > 0) {
        grant(granted)
        return () => {}
      }
      waiting.push(granted)
      drain()
      return () => {
        const i = waiting.indexOf(granted)
        if (i >= 0) waiting.splice(i, 1)
        if (waiting.length === 0) drain()
      }
    },
    pause: (seconds) => {
      pausedUntil = Math.max(pausedUntil, now() + seconds * 1000)
      drain()
    },
    nextAt: () => (waiting.length === 0 ? undefined : nextFree(now()))
  }
}

const shared = new Map<string, Budget>()

/** The process's one budget for `limit` (every client layer of the process with it shares it). */
export const sharedBudget = (limit: RateLimit): Budget => {
  const key = `${limit.requests}/${limit.seconds}`
  let b = shared.get(key)
  if (b === undefined) shared.set(key, (b = makeBudget(limit)))
  return b
}
