/**
 * The last line of defence: a component that throws while drawing is replaced by an error state
 * (with r to try again) instead of taking the whole app down.
 */
import { Box, Text } from "ink"
import { Component, type ReactNode } from "react"
import { fromUnknown, type UiError } from "../errors.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useUiActions } from "../state.js"
import { ErrorView } from "./states.js"

interface Props {
  readonly what: string
  readonly children: ReactNode
}

export class ErrorBoundary extends Component<Props, { error: UiError | undefined }> {
  override state: { error: UiError | undefined } = { error: undefined }

  static getDerivedStateFromError(error: unknown) {
    return { error: fromUnknown(error) }
  }

  override render() {
    if (this.state.error === undefined) return this.props.children
    return (
      <Fallback what={this.props.what} error={this.state.error} onRetry={() => this.setState({ error: undefined })} />
    )
  }
}

function Fallback({ what, error, onRetry }: { what: string; error: UiError; onRetry: () => void }) {
  const { quit } = useUiActions()
  useKeys(
    (press) => {
      if (press.name === "r") onRetry()
      else if (press.name === "q") quit()
      else return false
      return true
    },
    {
      priority: KeyLayer.view,
      hints: [
        { keys: "r", label: "try again" },
        { keys: "q", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column">
      <ErrorView what={what} error={error} />
      <Text dimColor>the rest of the app still works: pick another screen (1–6) or quit (q)</Text>
    </Box>
  )
}
