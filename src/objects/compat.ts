// The configuration's `compatibility_date` and `compatibility_flags`, and the dated behaviours of
// the object runtime they switch, as the platform's runtime decides them: a behaviour is on when
// its enable flag is given, off when its disable flag is, else on from its date.

/** Each dated behaviour: its flags and the date it became the default (the runtime's own table). */
const Behaviours = {
  // storage.deleteAll() also deletes the alarm.
  deleteAllDeletesAlarm: {
    enable: "delete_all_deletes_alarm",
    disable: "delete_all_preserves_alarm",
    date: "2026-02-24"
  }
} as const

type Behaviour = keyof typeof Behaviours

export interface Compatibility {
  /** YYYY-MM-DD; undefined when the configuration has none (the oldest behaviour applies). */
  readonly date: string | undefined
  readonly flags: ReadonlyArray<string>
  readonly enabled: Readonly<Record<Behaviour, boolean>>
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

const checkDate = (date: string, today: string): void => {
  const time = DATE.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN
  // Date.parse takes 2026-02-30 as March 2: a real date reads back the same.
  const valid = Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === date
  if (!valid) throw new TypeError(`compatibility_date: expected a date as YYYY-MM-DD, got ${JSON.stringify(date)}`)
  // The platform refuses a date it does not know yet.
  if (date > today)
    throw new TypeError(`compatibility_date: ${date} is in the future (today is ${today}); use ${today} or earlier`)
}

export const compatibility = (
  date: string | undefined,
  flags: ReadonlyArray<string> = [],
  now: number = Date.now()
): Compatibility => {
  if (date !== undefined) checkDate(date, new Date(now).toISOString().slice(0, 10))
  const given = new Set(flags)
  const enabled = {} as Record<Behaviour, boolean>
  for (const [name, b] of Object.entries(Behaviours) as Array<[Behaviour, (typeof Behaviours)[Behaviour]]>) {
    if (given.has(b.enable) && given.has(b.disable))
      throw new TypeError(
        `compatibility_flags: "${b.enable}" and "${b.disable}" contradict each other; keep one of them`
      )
    enabled[name] = given.has(b.enable) ? true : given.has(b.disable) ? false : date !== undefined && date >= b.date
  }
  return { date, flags: [...flags], enabled }
}
