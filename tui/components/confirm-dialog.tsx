/**
 * A confirmation for a destructive key (`d`): a framed question that takes every key while open;
 * `y` confirms, `n` or esc cancels. What will be lost is said in the question.
 */
import { Box, Text } from "ink"
import { KeyLayer, useKeys } from "../keys.js"

export function ConfirmDialog(props: { readonly title: string; readonly message: string; readonly onYes: () => void; readonly onNo: () => void }) {
  useKeys(
    (press) => {
      if (press.name === "y" || press.name === "Y") props.onYes()
      else if (press.name === "n" || press.name === "N" || press.name === "escape") props.onNo()
      return true
    },
    {
      priority: KeyLayer.dialog,
      modal: true,
      hints: [
        { keys: "y", label: "yes" },
        { keys: "n/esc", label: "no" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor="red" paddingX={1}>
      <Text bold color="red">
        {props.title}
      </Text>
      <Text>{props.message}</Text>
      <Text dimColor>y deletes · n or esc keeps it</Text>
    </Box>
  )
}
