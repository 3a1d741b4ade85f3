/**
 * The refusal of a command given an object that is not stored: a mistyped class or name must not
 * create an object (and then read nothing from it), so the error names the ones that do exist.
 */
import { listStored } from "../../../objects/ids.js"
import { CliFailure } from "../../run.js"

const Shown = 5

const names = (xs: ReadonlyArray<string>, on: string): string =>
  xs.length <= Shown
    ? xs.join(", ")
    : `${xs.slice(0, Shown).join(", ")} and ${xs.length - Shown} more (\`edgectl objects list${on}\` shows all)`

/**
 * `error:` naming the object and the state directory, `hint:` naming the stored objects, exit 1.
 * `on`: the command's ` --persist-to DIR`, carried by every command the hint suggests.
 */
export const missingObject = (
  what: string,
  stateDir: string,
  className: string,
  name: string,
  on: string,
  create?: string
): CliFailure => {
  const stored = listStored(stateDir)
  const label = (o: { name: string | null; id: string }) =>
    o.name !== null ? JSON.stringify(o.name) : `${o.id.slice(0, 12)}…`
  const sameClass = stored.filter((o) => o.className === className)
  const hint =
    stored.length === 0
      ? `no objects are stored under ${stateDir}; ${create ?? `\`edgectl objects kv CLASS NAME put KEY VALUE${on}\` writes one`}`
      : sameClass.length > 0
        ? `stored objects of class ${className}: ${names(sameClass.map(label), on)}${create !== undefined ? `; ${create}` : ""}`
        : `no objects of class ${className}; stored: ${names(
            stored.map((o) => `${o.className} ${label(o)}`),
            on
          )}`
  return new CliFailure({
    text: `error: ${what}: no object ${className} ${JSON.stringify(name)} under ${stateDir}\nhint: ${hint}`,
    exitCode: 1
  })
}
