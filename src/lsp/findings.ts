/**
 * What the checks find in a document, in document character offsets (UTF-16, end exclusive):
 * the editor server turns findings into LSP diagnostics and code actions, `edgectl check` prints
 * them. One shape for both, so the editor and CI cannot disagree.
 */
import type { Diagnostic, Range } from "../rules/index.js"

export type { Range }

export interface TextEdit {
  readonly range: Range
  readonly newText: string
}

/** A fix offered for a finding: edits of the same document, or a command to run. */
export interface Fix {
  readonly title: string
  readonly edits?: ReadonlyArray<TextEdit>
  /** A new file written next to the document (the generated WAF configuration). */
  readonly create?: { readonly name: string; readonly text: string }
  /** An `edgectl` command line for the user to run (deleting a URI-based override). */
  readonly command?: string
  /** What the editor shows once the fix is applied (the notes of a written file that JSON cannot carry as comments). */
  readonly message?: string
  readonly preferred?: boolean
}

export interface Related {
  readonly range: Range
  readonly message: string
}

export interface Finding extends Diagnostic {
  readonly related?: ReadonlyArray<Related>
  readonly fixes?: ReadonlyArray<Fix>
}

export type DocumentKind = "rules" | "rules-json" | "kv-bulk" | "waf-config" | "waf-export" | "terraform" | "json"

/** Where a rules expression sits in a document: for hover and completion inside it. */
export interface ExpressionRegion {
  readonly text: string
  /** `offsets[i]`: the document offset of the expression's character i; one more entry for its end. */
  readonly offsets: ReadonlyArray<number>
}

export interface Analysis {
  readonly kind: DocumentKind | undefined
  readonly findings: ReadonlyArray<Finding>
  readonly expressions: ReadonlyArray<ExpressionRegion>
  /** Actions on the whole document, offered wherever the cursor is (generate the WAF configuration). */
  readonly actions?: ReadonlyArray<Fix>
  /** What the next check of the same document may reuse (the entries of a KV bulk file). */
  readonly memo?: Memo
  /**
   * The deprecation scanner's findings a check already made, with fixes of its own (the legacy
   * products' Terraform rewrite): listed with the scanner's others, in its order (./analyze.ts).
   */
  readonly deprecations?: ReadonlyArray<Finding>
}

/** A document's last checked text and the per-entry results of a bulk file. */
export interface Memo {
  readonly text: string
  readonly bulk: BulkState
}

/** One entry: where it is, its key, and its own findings (ranges relative to `start`). */
export interface EntryResult {
  readonly start: number
  readonly end: number
  readonly key: string | undefined
  readonly keyRange: Range | undefined
  readonly findings: ReadonlyArray<Finding>
}

/** The per-entry results of a KV bulk file (kv-bulk.ts); here, in the memo, so that the two modules do not import each other. */
export interface BulkState {
  readonly keysOnly: boolean
  readonly entries: ReadonlyArray<EntryResult>
}

export const finding = (
  severity: Finding["severity"],
  code: string,
  message: string,
  range: Range,
  extra: { hint?: string | undefined; related?: ReadonlyArray<Related>; fixes?: ReadonlyArray<Fix> } = {}
): Finding => ({
  severity,
  code,
  message,
  range,
  ...(extra.hint !== undefined ? { hint: extra.hint } : {}),
  ...(extra.related !== undefined && extra.related.length > 0 ? { related: extra.related } : {}),
  ...(extra.fixes !== undefined && extra.fixes.length > 0 ? { fixes: extra.fixes } : {})
})
