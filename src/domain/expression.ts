/**
 * A diagnostic of the rules checker (src/rules) as it crosses the wire: in `InvalidExpression`
 * errors and in the firewall test answers. Ranges are character offsets, end exclusive.
 */
import * as Schema from "effect/Schema"

export const ExpressionDiagnostic = Schema.Struct({
  severity: Schema.String,
  code: Schema.String,
  message: Schema.String,
  range: Schema.Struct({ start: Schema.Number, end: Schema.Number }),
  hint: Schema.optional(Schema.String)
})
export type ExpressionDiagnostic = typeof ExpressionDiagnostic.Type
