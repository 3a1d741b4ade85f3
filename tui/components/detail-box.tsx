/**
 * One object shown whole in a bordered box: a title, `name  value` lines (each cut to the width),
 * and a long text wrapped under its label (a rule's expression). The firewall and custom rules
 * panels show a rule this way.
 */
import { Box, Text } from "ink"

export function DetailBox({
  title,
  fields,
  textLabel,
  text,
  height
}: {
  title: string
  fields: ReadonlyArray<readonly [string, string]>
  textLabel: string
  text: string
  height: number
}) {
  return (
    <Box flexDirection="column" height={height} overflow="hidden" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      {fields.map(([k, v]) => (
        <Text key={k} wrap="truncate-end">
          <Text dimColor>{k.padEnd(9)}</Text>
          {v}
        </Text>
      ))}
      <Text dimColor>{textLabel}</Text>
      <Text wrap="wrap">{text}</Text>
    </Box>
  )
}
