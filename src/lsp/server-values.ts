/**
 * The server's findings, completions and outlines as LSP values: severities and kinds, offsets as
 * line and character ranges, a finding as a diagnostic, the formatting width a client asks for.
 */
import {
  CompletionItemKind,
  DiagnosticSeverity,
  SymbolKind,
  type Diagnostic,
  type Range
} from "vscode-languageserver/node.js"
import type { Finding } from "./findings.js"
import type { LineIndex } from "./position.js"

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information
} as const

export const KIND = {
  field: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  keyword: CompletionItemKind.Keyword,
  operator: CompletionItemKind.Operator,
  value: CompletionItemKind.Value,
  list: CompletionItemKind.Variable,
  property: CompletionItemKind.Property,
  enum: CompletionItemKind.EnumMember
} as const

export const SYMBOL_KIND = {
  object: SymbolKind.Object,
  class: SymbolKind.Class,
  module: SymbolKind.Module,
  property: SymbolKind.Property,
  key: SymbolKind.Key,
  boolean: SymbolKind.Boolean,
  array: SymbolKind.Array,
  struct: SymbolKind.Struct
} as const

/** Where a formatted expression wraps when the client names no width (its `printWidth` option). */
export const DEFAULT_WIDTH = 100
export const widthOf = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isInteger(v) && v >= 20 ? v : undefined

export const toRange = (lines: LineIndex, r: { start: number; end: number }): Range => ({
  start: lines.position(r.start),
  end: lines.position(r.end)
})

export const diagnostic = (uri: string, lines: LineIndex, f: Finding): Diagnostic => ({
  severity: SEVERITY[f.severity],
  code: f.code,
  source: "edgectl",
  message: f.hint ? `${f.message}\nhint: ${f.hint}` : f.message,
  range: toRange(lines, f.range),
  ...(f.related
    ? {
        relatedInformation: f.related.map((r) => ({
          location: { uri, range: toRange(lines, r.range) },
          message: r.message
        }))
      }
    : {})
})
