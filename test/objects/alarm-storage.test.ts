import { describe, expect, it } from "vitest"
import { ObjectStorage } from "../../src/objects/index.js"
import { openStorage, tempDir } from "../helpers/objects.js"

describe("alarm storage", () => {
  it("not set -> set -> not set; a Date is accepted and read back as ms; persisted across restarts", async () => {
    const seen: Array<number | null> = []
    const dir = tempDir()
    const s = new ObjectStorage(dir, { onAlarm: (t) => seen.push(t) })
    expect(await s.getAlarm()).toBeNull()
    const at = Date.now() + 60_000
    await s.setAlarm(new Date(at))
    expect(await s.getAlarm()).toBe(at)
    s.close()
    const again = new ObjectStorage(dir)
    expect(await again.getAlarm()).toBe(at)
    await again.deleteAlarm()
    expect(await again.getAlarm()).toBeNull()
    again.close()
    expect(seen).toEqual([at])
  })

  it("a time in the past is clamped to now; an invalid time is refused", async () => {
    const now = 1_800_000_000_000
    const s = openStorage(undefined, { now: () => now })
    await s.setAlarm(now - 60_000)
    expect(await s.getAlarm()).toBe(now)
    await expect(s.setAlarm(Number.NaN)).rejects.toThrow(/not a valid Date/)
    await expect(s.setAlarm(new Date("nope"))).rejects.toThrow(/not a valid Date/)
  })
})
