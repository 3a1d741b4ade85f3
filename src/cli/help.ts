/**
 * Help text as @effect/cli 0.77 prints it, corrected where it misleads: a sub-command's usage line
 * names only the command (`$ put` for `edgectl kv key put`), and a list of commands three levels
 * deep repeats its prefix (`kv kv namespace create`), and every option and argument opens with its
 * type's stock sentence ("A user-defined piece of text.") before its own description. Applied to
 * what the CLI prints on stdout.
 */

const UsageLine = /^\$ (\S+)/m
/** `  - kv kv namespace create …`: the words before the repeat, then the repeat. */
const Repeated = /^(\s*- )((?:[a-z][\w-]* )+)\2/

/** `text` with a usage line naming the whole command (`$ edgectl kv key put …`), for the command line `args`. */
const fullUsage = (text: string, args: ReadonlyArray<string>): string => {
  const m = UsageLine.exec(text)
  if (m === null || m[1] === "edgectl") return text
  const words: Array<string> = []
  for (const a of args) {
    if (a.startsWith("-")) break
    words.push(a)
  }
  const at = words.indexOf(m[1]!)
  if (at < 0) return text
  return text.replace(UsageLine, `$ edgectl ${words.slice(0, at + 1).join(" ")}`)
}

/** A list line without its repeated prefix, padded so that its description stays in its column. */
const withoutRepeat = (line: string): string => {
  const m = Repeated.exec(line)
  if (m === null) return line
  const rest = line.slice(m[0].length)
  const gap = rest.indexOf("  ")
  const pad = " ".repeat(m[2]!.length)
  return `${m[1]}${m[2]}${gap < 0 ? rest : `${rest.slice(0, gap)}${pad}${rest.slice(gap)}`}`
}

/** A command list's line: `  - <usage>  <description>` (the usage padded to the longest one). */
const ListLine = /^(\s*- )(.*?\S)\s{2,}(\S.*?)\s*$/

/**
 * @effect/cli pads every usage of a command list to the longest one, so one long usage pushes all
 * the descriptions hundreds of columns right. When the aligned lines would not fit `width`, each
 * description goes under its usage instead.
 */
const fitList = (lines: ReadonlyArray<string>, width: number): ReadonlyArray<string> => {
  const widest = Math.max(0, ...lines.map((l) => (ListLine.test(l) ? l.trimEnd().length : 0)))
  if (widest <= width) return lines
  return lines.flatMap((l) => {
    const m = ListLine.exec(l)
    return m === null ? [l] : [`${m[1]}${m[2]}`, `${" ".repeat(m[1]!.length + 2)}${m[3]}`]
  })
}

/** @effect/cli's sentence for each value type, which it prints above every description (primitive.js). */
const StockSentence =
  /^\s+(A user-defined piece of text\.|A true or false value\.|An integer\.|A floating point number\.)$/

/** The lines without the stock sentences and the blank line after each. */
const withoutStock = (lines: ReadonlyArray<string>): ReadonlyArray<string> =>
  lines.filter((l, i) => !StockSentence.test(l) && !(l.trim() === "" && StockSentence.test(lines[i - 1] ?? "")))

/** Help text corrected; any other text unchanged. */
export const polishHelp = (text: string, args: ReadonlyArray<string>, width = 100): string => {
  if (!/^USAGE$/m.test(text.replace(/\u001b\[[0-9;]*m/g, ""))) return text
  return fitList(withoutStock(fullUsage(text, args).split("\n").map(withoutRepeat)), width).join("\n")
}
