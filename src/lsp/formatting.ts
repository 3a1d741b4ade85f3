/**
 * Formatting, whole document and range, for the documents it applies to: a `*.rules` expression
 * with the rules formatter (wrapped at a width; a file with errors is left as it is: `null`), JSON
 * with jsonc-parser's formatter (the client's indentation, comments kept), and Terraform not at all
 * (`terraform fmt` owns HCL layout: no edits). A range formats what of the whole result falls in
 * the range's lines: the one edit between the first and last changed characters, when it is there.
 */
import { format as formatJson } from "jsonc-parser"
import { check, format } from "../rules/index.js"
import type { DocumentSyntax } from "./analyze.js"
import type { Range } from "./findings.js"

export interface OffsetEdit {
  readonly range: Range
  readonly newText: string
}

export interface FormatOptions {
  readonly tabSize: number
  readonly insertSpaces: boolean
  /** Where a rules expression wraps. */
  readonly width: number
}

/** The one edit from `text` to `formatted`: the span between their common prefix and suffix. */
const difference = (text: string, formatted: string): OffsetEdit | undefined => {
  if (text === formatted) return undefined
  let start = 0
  while (start < text.length && start < formatted.length && text[start] === formatted[start]) start++
  let end = 0
  while (
    end < text.length - start &&
    end < formatted.length - start &&
    text[text.length - 1 - end] === formatted[formatted.length - 1 - end]
  )
    end++
  return { range: { start, end: text.length - end }, newText: formatted.slice(start, formatted.length - end) }
}

/** The edits that format `text` (within `range` when given); `null` where it cannot be formatted. */
export const formatEdits = (
  syntax: DocumentSyntax,
  text: string,
  options: FormatOptions,
  range?: Range
): ReadonlyArray<OffsetEdit> | null => {
  switch (syntax) {
    case "rules": {
      const result = check(text.replace(/\s+$/, ""))
      if (result.checked === undefined) return null
      const formatted = `${format(result.checked.expression, { width: options.width })}${text.endsWith("\n") ? "\n" : ""}`
      const edit = difference(text, formatted)
      if (edit === undefined) return []
      if (range === undefined) return [{ range: { start: 0, end: text.length }, newText: formatted }]
      // The range's whole lines: a selection inside a line formats that line.
      const from = text.lastIndexOf("\n", range.start - 1) + 1
      const next = text.indexOf("\n", range.end)
      const to = next < 0 ? text.length : next
      return edit.range.start <= to && edit.range.end >= from ? [edit] : []
    }
    case "json":
      return formatJson(
        text,
        range === undefined ? undefined : { offset: range.start, length: range.end - range.start },
        {
          tabSize: options.tabSize,
          insertSpaces: options.insertSpaces,
          insertFinalNewline: text.endsWith("\n"),
          keepLines: false
        }
      ).map((e) => ({ range: { start: e.offset, end: e.offset + e.length }, newText: e.content }))
    case "terraform":
      return []
  }
}
