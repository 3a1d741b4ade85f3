/**
 * Facts of the demo world the tests read instead of writing them down (fixtures/world.json, which
 * seeds every fresh state directory): a change of the world changes the tests' expectations with it.
 */
import world from "../../fixtures/world.json" with { type: "json" }

/** The zones the zone list shows (the member accounts' zones), so its counter reads `1/${DemoZones}`. */
export const DemoZones: number = world.accounts.reduce((n, a) => n + a.zones.length, 0)

/** The zone list's counter at row `n`, e.g. `1/46`; `last` for the last row. */
export const zoneCounter = (n: number | "last"): string => `${n === "last" ? DemoZones : n}/${DemoZones}`
