/**
 * A one-line text field of a form: its label, what was typed (scrolled to keep the cursor in view
 * when it is longer than the field) and the cursor as an inverse cell when it has the keys; a
 * problem with it on the line below. The form owns the keys (one modal layer for all its fields)
 * and edits each field's line with tui/line-editor.ts.
 */
import { Box, Text } from "ink"
import { lineOf, type Line } from "../line-editor.js"
import { LineText } from "./line-input.js"

export function TextField(props: {
  readonly label: string
  readonly value: string
  /** The cursor in `value` (codepoints); at its end when not given. */
  readonly cursor?: number
  readonly focused: boolean
  readonly width: number
  readonly placeholder?: string
  readonly problem?: string | undefined
  readonly disabled?: boolean
}) {
  const room = Math.max(8, props.width - props.label.length - 4)
  const line: Line = props.cursor === undefined ? lineOf(props.value) : { text: props.value, cursor: props.cursor }
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text {...(props.focused ? { color: "cyan" } : {})} bold={props.focused}>
          {props.focused ? "› " : "  "}
          {props.label}:{" "}
        </Text>
        {props.value === "" && props.placeholder !== undefined && !props.focused ? (
          <Text dimColor>{props.placeholder}</Text>
        ) : null}
        <Text dimColor={props.disabled === true}>
          <LineText line={line} width={room} focused={props.focused} />
        </Text>
      </Text>
      {props.problem !== undefined ? (
        // Wrapped whole under the field (issue 29: a long one, a metadata's JSON error, was cut).
        <Box paddingLeft={4}>
          <Text color="red" wrap="wrap">
            {props.problem}
          </Text>
        </Box>
      ) : null}
    </Box>
  )
}
