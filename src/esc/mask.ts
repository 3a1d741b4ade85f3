/**
 * How a secret is shown where a user must recognise it: `ab…yz`, never in full. Short secrets show
 * less, so that the mask never gives away more than half of one.
 */
export const maskSecret = (secret: string): string => {
  const chars = [...secret]
  if (chars.length >= 8) return `${chars.slice(0, 2).join("")}…${chars.slice(-2).join("")}`
  if (chars.length >= 4) return `${chars[0]}…${chars[chars.length - 1]}`
  return "…"
}

/** `ab…yz (18 characters)`. */
export const describeSecret = (secret: string): string => {
  const n = [...secret].length
  return `${maskSecret(secret)} (${n} character${n === 1 ? "" : "s"})`
}

/** A Cookie header with the value of every `disable_esc` cookie masked, for display. */
export const maskCookieHeader = (header: string): string =>
  header.replace(
    /(^|[;:])(\s*disable_esc\s*=\s*)("?)([^;"]*)("?)/g,
    (_, sep: string, name: string, q1: string, value: string, q2: string) =>
      `${sep}${name}${q1}${value === "" ? "" : maskSecret(value)}${q2}`
  )
