/** Units: the firewall's typed errors cross the wire with their typed fields (the client reads them back). */
import { describe, expect, it } from "vitest"
import {
  DuplicateFilter,
  fromFailure,
  InvalidExpression,
  QuotaExceeded,
  statusOf,
  toFailureEnvelope
} from "../../src/domain/errors.js"
import { expressionError, parsingMessage } from "../../src/firewall/expression.js"

const roundTrip = <E extends Parameters<typeof toFailureEnvelope>[0]>(e: E) =>
  fromFailure(statusOf(e), toFailureEnvelope(e).errors)

describe("firewall errors on the wire", () => {
  it("DuplicateFilter carries the existing filter's id as meta.id (code 10102)", () => {
    const e = new DuplicateFilter({
      message: "config duplicates an already existing config",
      existingId: "a".repeat(32)
    })
    expect(toFailureEnvelope(e).errors[0]).toEqual({ code: 10102, message: e.message, meta: { id: "a".repeat(32) } })
    const back = roundTrip(e)
    expect(back).toBeInstanceOf(DuplicateFilter)
    expect((back as DuplicateFilter).existingId).toBe("a".repeat(32))
  })

  it("QuotaExceeded carries the orphan filter's id as meta.filter_id", () => {
    const e = new QuotaExceeded({ message: "quota", filterId: "b".repeat(32), meta: { quota: 5 } })
    expect(toFailureEnvelope(e).errors[0]!.meta).toEqual({ quota: 5, filter_id: "b".repeat(32) })
    expect((roundTrip(e) as QuotaExceeded).filterId).toBe("b".repeat(32))
    expect((roundTrip(new QuotaExceeded({ message: "q" })) as QuotaExceeded).filterId).toBeUndefined()
  })

  it("InvalidExpression carries the checker's diagnostics; the platform's code-less parse error maps to it too", () => {
    const e = expressionError("ip.src==34", "pro")!
    expect(e.message).toBe(
      parsingMessage(
        "ip.src==34",
        e.diagnostics.find((d) => d.severity === "error")!
      )
    )
    expect(e.message.split("\n")[0]).toBe("Filter parsing error:")
    expect(e.message.split("\n")[1]).toBe("`ip.src==34`")
    expect(e.message.split("\n")[2]).toMatch(/^ {9}\^\^ /)
    const back = roundTrip(e) as InvalidExpression
    expect(back).toBeInstanceOf(InvalidExpression)
    expect(back.diagnostics).toEqual(e.diagnostics)
    const platform = fromFailure(400, [
      {
        message:
          "Filter parsing error:\n`ip.src==34`\n          ^^ couldn't parse address in network: invalid IP address syntax\n"
      }
    ])
    expect(platform).toBeInstanceOf(InvalidExpression)
    expect((platform as InvalidExpression).diagnostics).toEqual([])
    expect(expressionError('http.host eq "ok"', "free")).toBeUndefined()
  })
})
