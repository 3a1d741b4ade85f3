/**
 * `EDGECTL_PLATFORM_NOW=<ISO 8601 instant>`: the platform's clock, frozen (a testing aid). Read here
 * once for everything that needs "now" on the platform's terms: the local platform's clock and the
 * deprecation scanner's dates, so that a test sets one variable and both agree.
 */
const ClockVariable = "EDGECTL_PLATFORM_NOW"

/** The instant the variable asks for, or undefined when it is unset; a value that is not an instant is an error. */
export const platformNowFromEnv = (
  env: Readonly<Record<string, string | undefined>> = process.env
): Date | undefined => {
  const v = env[ClockVariable]
  if (v === undefined || v.trim() === "") return undefined
  const at = new Date(v.trim())
  if (Number.isNaN(at.getTime())) {
    throw new Error(
      `${ClockVariable} must be an ISO 8601 instant such as 2024-06-01T12:00:00Z, got ${JSON.stringify(v)}`
    )
  }
  return at
}
