/**
 * A text read whole in a box of a fixed height, however long it is: its paragraphs wrapped by words
 * to the width (./wrap.ts), scrolled by the keys every long text scrolls by (./scroll.ts: ↑↓ j k a
 * line, page up/down a page, g/home and G/end to either end), with `lines a–b of n` under the lines
 * when they do not all fit; esc closes. A note, a rule's migration, anything that is data and can be
 * longer than the screen is shown with it, so nothing is cut at the bottom of a box. It takes the
 * keys while shown (a modal layer): the list under it gets none.
 */
import { Box, Text } from "ink"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"
import { useScroll } from "./scroll.js"
import { wrapText } from "./wrap.js"

/** The marker of the lines shown, when not all of them fit: `lines 1–17 of 40`. */
const linesShownText = (first: number, rows: number, total: number) =>
  `lines ${Math.min(first + 1, total)}–${Math.min(first + rows, total)} of ${total}`

export function ScrollText({
  title,
  paragraphs,
  height,
  active,
  onClose,
  closeKeys = [],
  bordered = false,
  closeLabel = "close"
}: {
  readonly title: string
  /** Each one wrapped on its own; an empty one is a blank line. */
  readonly paragraphs: ReadonlyArray<string>
  readonly height: number
  readonly active: boolean
  readonly onClose: () => void
  /** Keys that close besides esc (`n`, which opened it; `enter`). */
  readonly closeKeys?: ReadonlyArray<string>
  /** A round cyan border, as the dialogs over a list have. */
  readonly bordered?: boolean
  readonly closeLabel?: string
}) {
  // The border and its padding take 2 rows and 4 columns.
  const frame = bordered ? 2 : 0
  const width = Math.max(20, usePaneSize().columns - 2 * frame)
  const lines = paragraphs.flatMap((p) => (p === "" ? [""] : wrapText(p, width)))
  // The title's row; and the marker's, under the lines, when they do not all fit (a title stays whole).
  const room = Math.max(2, height - frame - 1)
  const rows = lines.length > room ? room - 1 : room
  const last = Math.max(0, lines.length - rows)
  const { first, scroll } = useScroll(last, rows)
  useKeys(
    (press) => {
      if (scroll(press.name)) return true
      if (press.name === "escape" || closeKeys.includes(press.name)) onClose()
      else return false
      return true
    },
    {
      priority: KeyLayer.dialog,
      modal: true,
      active,
      hints: [
        ...(last > 0 ? [{ keys: "↑↓/jk", label: "scroll", keep: 1 }] : []),
        { keys: "esc", label: closeLabel, keep: 1 }
      ],
      ...(last > 0 ? { help: [{ keys: "pgup/pgdn, home/end", label: "a page, either end" }] } : {})
    }
  )
  return (
    <Box
      flexDirection="column"
      height={height}
      overflow="hidden"
      {...(bordered ? { borderStyle: "round", borderColor: "cyan", paddingX: 1 } : {})}
    >
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      {lines.slice(first, first + rows).map((l, i) => (
        <Text key={first + i} wrap="truncate-end">
          {l === "" ? " " : l}
        </Text>
      ))}
      {last > 0 ? (
        <Text dimColor wrap="truncate-end">
          {`${linesShownText(first, rows, lines.length)}${first < last ? " · ↓ more" : ""}`}
        </Text>
      ) : null}
    </Box>
  )
}
