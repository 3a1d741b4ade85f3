/**
 * A one-line text field of a form: its label, what was typed (the end of it when it is longer than
 * the field) and a block cursor when it has the keys; a problem with it on the line below. The form
 * owns the keys (one modal layer for all its fields); `editText` applies a keypress to a value.
 */
import { Box, Text } from "ink"
import { isText, type Keypress } from "../keys.js"

/** The value after a keypress, or undefined when the key is not an edit. */
export const editText = (value: string, press: Keypress): string | undefined => {
  if (isText(press)) return value + press.input.replace(/[\r\n]+/g, " ")
  if (press.name === "backspace") return [...value].slice(0, -1).join("")
  if (press.name === "ctrl+u") return ""
  return undefined
}

export function TextField(props: {
  readonly label: string
  readonly value: string
  readonly focused: boolean
  readonly width: number
  readonly placeholder?: string
  readonly problem?: string | undefined
  readonly disabled?: boolean
}) {
  const room = Math.max(8, props.width - props.label.length - 4)
  const chars = [...props.value]
  const shown = chars.length > room ? `…${chars.slice(chars.length - room + 1).join("")}` : props.value
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text {...(props.focused ? { color: "cyan" } : {})} bold={props.focused}>
          {props.focused ? "› " : "  "}
          {props.label}:{" "}
        </Text>
        {props.value === "" && props.placeholder !== undefined && !props.focused ? <Text dimColor>{props.placeholder}</Text> : null}
        <Text dimColor={props.disabled === true}>{shown}</Text>
        {props.focused ? <Text inverse> </Text> : null}
      </Text>
      {props.problem !== undefined ? (
        <Text color="red" wrap="truncate-end">
          {"    "}
          {props.problem}
        </Text>
      ) : null}
    </Box>
  )
}
