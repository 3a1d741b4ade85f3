import { render } from "ink-testing-library"
import { describe, expect, it } from "vitest"
import { KeypressProvider } from "../../../tui/keys.js"
import { waitFor } from "../../helpers/ink.js"
import { DnsRecordView, wrapHard } from "../../../tui/screens/dns-record.js"

const content = Array.from({ length: 40 }, (_, i) => `chunk${String(i).padStart(2, "0")}-${"x".repeat(44)}`).join("")

describe("DNS record view", () => {
  it("wraps a long content whole and scrolls it when it is taller than the pane; esc goes back", async () => {
    let back = 0
    const app = render(
      <KeypressProvider onQuit={() => {}}>
        <DnsRecordView
          record={{
            id: "rec1",
            type: "TXT",
            name: "dkim._domainkey.acme.com",
            content,
            ttl: 1,
            proxied: false,
            proxiable: false
          }}
          active
          width={60}
          height={14}
          onBack={() => back++}
        />
      </KeypressProvider>
    )
    try {
      // Under its own `content` line, in rows as wide as the pane, with no indent (copied rows give it back).
      const lines = wrapHard(content, 60)
      expect(lines.join("")).toBe(content)
      await waitFor(
        () => (app.lastFrame() ?? "").includes(`of ${lines.length}`),
        () => app.lastFrame() ?? ""
      )
      const frame = app.lastFrame() ?? ""
      expect(frame).toContain("TXT dkim._domainkey.acme.com")
      expect(frame).toContain("ttl        1 (auto)")
      expect(frame).toContain(`content\n${lines[0]}\n`)
      expect(frame).toContain(`${content.length} characters`)
      expect(frame.split("\n").length).toBeLessThanOrEqual(14)
      // Every line of the content is reachable: G shows the last one.
      app.stdin.write("G")
      await waitFor(
        () => (app.lastFrame() ?? "").includes(`-${lines.length} of ${lines.length}`),
        () => app.lastFrame() ?? ""
      )
      expect(app.lastFrame()).toContain(`\n${lines[lines.length - 1]}\n`)
      app.stdin.write("\u001b")
      await waitFor(
        () => back === 1,
        () => app.lastFrame() ?? ""
      )
    } finally {
      app.unmount()
    }
  })
})
