/**
 * Text wrapped by words the way a reader expects, computed rather than left to the renderer, so a
 * part of the layout that must show a text whole (an error, the ESC banner) knows its height.
 * Widths count code points: the texts wrapped here are the app's own and the platform's messages.
 */

/** Words wrapped to `width` columns; a word longer than a line is cut across lines. */
export const wrapText = (text: string, width: number): ReadonlyArray<string> => {
  const w = Math.max(1, width)
  const lines: Array<string> = []
  for (const paragraph of text.split("\n")) {
    let line = ""
    for (const word of paragraph.split(" ")) {
      const candidate = line === "" ? word : `${line} ${word}`
      if ([...candidate].length <= w) {
        line = candidate
        continue
      }
      if (line !== "") lines.push(line)
      let rest = [...word]
      while (rest.length > w) {
        lines.push(rest.slice(0, w).join(""))
        rest = rest.slice(w)
      }
      line = rest.join("")
    }
    lines.push(line)
  }
  return lines
}
