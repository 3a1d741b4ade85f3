/**
 * The project configuration file users already have for wrangler: `wrangler.json`, `wrangler.jsonc`
 * or `wrangler.toml` in the current directory (that order, as wrangler), or `--config FILE`. edgectl
 * reads what its KV commands need: `name`, `account_id`, `kv_namespaces = [{binding, id,
 * preview_id}]`, and the same in `[env.NAME]` sections (which do not inherit `kv_namespaces`);
 * and what `objects dev` runs: `main`, `compatibility_date`, `compatibility_flags`,
 * `durable_objects.bindings = [{name, class_name, script_name}]` and `vars`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { isMissing } from "../../../domain/file-errors.js"

export type ConfigFormat = "toml" | "json" | "jsonc"

interface KvBinding {
  readonly binding: string
  readonly id: string | undefined
  readonly preview_id: string | undefined
}

interface DurableObjectConfig {
  readonly name: string
  readonly className: string
  /** Another worker's class (objects dev runs only the module's own). */
  readonly scriptName: string | undefined
}

export interface ConfigScope {
  readonly name: string | undefined
  readonly accountId: string | undefined
  /** undefined when the scope has no `kv_namespaces` at all. */
  readonly kvNamespaces: ReadonlyArray<KvBinding> | undefined
  readonly main: string | undefined
  readonly compatibilityDate: string | undefined
  readonly compatibilityFlags: ReadonlyArray<string> | undefined
  readonly durableObjects: ReadonlyArray<DurableObjectConfig> | undefined
  readonly vars: Readonly<Record<string, unknown>> | undefined
}

export interface ProjectConfig extends ConfigScope {
  /** As the user would name it (relative to the current directory when inside it). */
  readonly file: string
  readonly format: ConfigFormat
  readonly env: Readonly<Record<string, ConfigScope>>
}

/** A config file that cannot be read or makes no sense: the message names the file and the place. */
export class ConfigError {
  readonly _tag = "ConfigError"
  constructor(readonly message: string) {}
}

const ConfigNames = ["wrangler.json", "wrangler.jsonc", "wrangler.toml"] as const

const formatOf = (file: string): ConfigFormat =>
  file.endsWith(".toml") ? "toml" : file.endsWith(".jsonc") ? "jsonc" : "json"

const lineColumnAt = (text: string, offset: number) => {
  const before = text.slice(0, offset)
  const line = before.split("\n").length
  return { line, column: offset - before.lastIndexOf("\n") }
}

const parseText = async (file: string, text: string, format: ConfigFormat): Promise<unknown> => {
  if (format === "toml") {
    const { parse, TomlError } = await import("smol-toml")
    try {
      return parse(text)
    } catch (e) {
      if (e instanceof TomlError)
        throw new ConfigError(
          `${file}:${e.line}:${e.column}: ${e.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "")}`
        )
      throw e
    }
  }
  const [{ parse }, { jsonErrorReason }] = await Promise.all([
    import("jsonc-parser"),
    import("../../../kv/json-array.js")
  ])
  const errors: Array<import("jsonc-parser").ParseError> = []
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown
  const first = errors[0]
  if (first !== undefined) {
    const { line, column } = lineColumnAt(text, first.offset)
    throw new ConfigError(`${file}:${line}:${column}: ${jsonErrorReason(first.error)}`)
  }
  return value
}

const typeName = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`

const optionalString = (file: string, where: string, v: unknown): string | undefined => {
  if (v === undefined) return undefined
  if (typeof v !== "string") throw new ConfigError(`${file}: ${where} must be a string, got ${typeName(v)}`)
  return v
}

const scopeOf = (file: string, prefix: string, o: Record<string, unknown>): ConfigScope => {
  const list = o.kv_namespaces
  let kvNamespaces: Array<KvBinding> | undefined
  if (list !== undefined) {
    if (!Array.isArray(list))
      throw new ConfigError(`${file}: ${prefix}kv_namespaces must be an array, got ${typeName(list)}`)
    kvNamespaces = list.map((raw, i) => {
      const where = `${prefix}kv_namespaces[${i}]`
      if (typeof raw !== "object" || raw === null || Array.isArray(raw))
        throw new ConfigError(`${file}: ${where} must be an object, got ${typeName(raw)}`)
      const b = raw as Record<string, unknown>
      const binding = optionalString(file, `${where}.binding`, b.binding)
      if (binding === undefined || binding === "") throw new ConfigError(`${file}: ${where} has no "binding"`)
      return {
        binding,
        id: optionalString(file, `${where}.id`, b.id),
        preview_id: optionalString(file, `${where}.preview_id`, b.preview_id)
      }
    })
    // A binding names one namespace: a second of the same name would be silently ignored.
    const seen = new Map<string, number>()
    kvNamespaces.forEach((b, i) => {
      const first = seen.get(b.binding)
      if (first !== undefined)
        throw new ConfigError(
          `${file}: ${prefix}kv_namespaces[${first}] and ${prefix}kv_namespaces[${i}] both have binding ${JSON.stringify(b.binding)}; a binding names one namespace`
        )
      seen.set(b.binding, i)
    })
  }
  return {
    name: optionalString(file, `${prefix}name`, o.name),
    accountId: optionalString(file, `${prefix}account_id`, o.account_id),
    kvNamespaces,
    main: optionalString(file, `${prefix}main`, o.main),
    compatibilityDate: optionalString(file, `${prefix}compatibility_date`, o.compatibility_date),
    compatibilityFlags: stringList(file, `${prefix}compatibility_flags`, o.compatibility_flags),
    durableObjects: durableObjectsOf(file, prefix, o.durable_objects),
    vars: tableOf(file, `${prefix}vars`, o.vars)
  }
}

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

const tableOf = (file: string, where: string, v: unknown): Record<string, unknown> | undefined => {
  if (v === undefined) return undefined
  if (!isTable(v)) throw new ConfigError(`${file}: ${where} must be a table, got ${typeName(v)}`)
  return v
}

const stringList = (file: string, where: string, v: unknown): Array<string> | undefined => {
  if (v === undefined) return undefined
  if (!Array.isArray(v)) throw new ConfigError(`${file}: ${where} must be an array of strings, got ${typeName(v)}`)
  return v.map((x, i) => {
    if (typeof x !== "string") throw new ConfigError(`${file}: ${where}[${i}] must be a string, got ${typeName(x)}`)
    return x
  })
}

const durableObjectsOf = (file: string, prefix: string, v: unknown): Array<DurableObjectConfig> | undefined => {
  const table = tableOf(file, `${prefix}durable_objects`, v)
  if (table === undefined || table.bindings === undefined) return undefined
  const list = table.bindings
  if (!Array.isArray(list))
    throw new ConfigError(`${file}: ${prefix}durable_objects.bindings must be an array, got ${typeName(list)}`)
  return list.map((raw, i) => {
    const where = `${prefix}durable_objects.bindings[${i}]`
    if (!isTable(raw)) throw new ConfigError(`${file}: ${where} must be an object, got ${typeName(raw)}`)
    const name = optionalString(file, `${where}.name`, raw.name)
    const className = optionalString(file, `${where}.class_name`, raw.class_name)
    if (name === undefined || name === "") throw new ConfigError(`${file}: ${where} has no "name"`)
    if (className === undefined || className === "") throw new ConfigError(`${file}: ${where} has no "class_name"`)
    return { name, className, scriptName: optionalString(file, `${where}.script_name`, raw.script_name) }
  })
}

/** Parses a config file's text (exported for tests and for the editor checks). */
const parseConfig = async (
  file: string,
  text: string,
  format: ConfigFormat = formatOf(file)
): Promise<ProjectConfig> => {
  const raw = await parseText(file, text, format)
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new ConfigError(`${file}: the configuration must be an object, got ${typeName(raw)}`)
  const o = raw as Record<string, unknown>
  const env: Record<string, ConfigScope> = {}
  if (o.env !== undefined) {
    if (typeof o.env !== "object" || o.env === null || Array.isArray(o.env))
      throw new ConfigError(`${file}: env must be a table of environments, got ${typeName(o.env)}`)
    for (const [name, section] of Object.entries(o.env as Record<string, unknown>)) {
      if (typeof section !== "object" || section === null || Array.isArray(section))
        throw new ConfigError(`${file}: env.${name} must be a table, got ${typeName(section)}`)
      env[name] = scopeOf(file, `env.${name}.`, section as Record<string, unknown>)
    }
  }
  return { file, format, env, ...scopeOf(file, "", o) }
}

/**
 * The project config: `explicit` (`--config`), else the first of wrangler.json, wrangler.jsonc and
 * wrangler.toml in `cwd`; undefined when there is none.
 */
export const loadProjectConfig = async (cwd: string, explicit?: string): Promise<ProjectConfig | undefined> => {
  const candidates = explicit !== undefined ? [path.resolve(cwd, explicit)] : ConfigNames.map((n) => path.join(cwd, n))
  for (const full of candidates) {
    let text: string
    try {
      text = fs.readFileSync(full, "utf8")
    } catch (e) {
      if (explicit === undefined && isMissing(e)) continue
      throw new ConfigError(`cannot read ${explicit ?? full}: ${isMissing(e) ? "no such file" : (e as Error).message}`)
    }
    const shown = path.relative(cwd, full).startsWith("..") ? full : path.relative(cwd, full)
    return parseConfig(shown, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, formatOf(full))
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Namespaces and titles

export interface NamespaceChoice {
  readonly binding?: string | undefined
  readonly namespaceId?: string | undefined
  readonly env?: string | undefined
  /** undefined: the flag was not given (`--preview` alone is true). */
  readonly preview?: boolean | undefined
  /** Writes refuse to guess between a binding's id and preview_id. */
  readonly write: boolean
}

export interface ResolvedNamespace {
  readonly id: string
  /** `binding MY_KV` or `id abc…`, for messages. */
  readonly label: string
  readonly binding: string | undefined
}

/** The scope `--env` names (the top level without it). */
export const scopeFor = (config: ProjectConfig, env: string | undefined): ConfigScope => {
  if (env === undefined || env === "") return config
  const scope = config.env[env]
  if (scope === undefined) {
    const names = Object.keys(config.env)
    // Said as the file's own format writes it: a TOML section, a JSON key.
    const section = config.format === "toml" ? `[env.${env}] section` : `"env": {"${env}": …} entry`
    throw new ConfigError(
      `--env ${env}: ${config.file} has no ${section} (${names.length > 0 ? `environments: ${names.join(", ")}` : "it defines no environments"})`
    )
  }
  return scope
}

/** The namespace id for `--binding` (through the config) or `--namespace-id`. */
export const resolveBinding = (
  config: ProjectConfig | undefined,
  cwd: string,
  choice: NamespaceChoice & { binding: string }
): ResolvedNamespace => {
  if (config === undefined) {
    throw new ConfigError(
      `--binding ${choice.binding}: there is no ${ConfigNames.join(", ")} in ${cwd}; run in the project directory, pass --config, or use --namespace-id`
    )
  }
  const scope = scopeFor(config, choice.env)
  const where = choice.env ? `env.${choice.env}.kv_namespaces` : "kv_namespaces"
  const list = scope.kvNamespaces ?? []
  const b = list.find((x) => x.binding === choice.binding)
  if (b === undefined) {
    const inherited =
      choice.env && scope.kvNamespaces === undefined && config.kvNamespaces?.some((x) => x.binding === choice.binding)
    const known = list.map((x) => x.binding)
    throw new ConfigError(
      `--binding ${choice.binding}: no KV namespace with that binding in ${where} of ${config.file}` +
        (inherited
          ? " (the top level has it, but environments do not inherit kv_namespaces)"
          : known.length > 0
            ? ` (bindings: ${known.join(", ")})`
            : "")
    )
  }
  const label = (id: string) => ({ id, label: `binding ${b.binding} (${id})`, binding: b.binding })
  if (choice.preview === true) {
    if (b.preview_id === undefined) {
      throw new ConfigError(
        `--preview: binding ${b.binding} has no preview_id in ${where} of ${config.file}; add one, or use --namespace-id`
      )
    }
    return label(b.preview_id)
  }
  if (b.id === undefined) {
    if (b.preview_id !== undefined && choice.preview === undefined) return label(b.preview_id)
    throw new ConfigError(
      `--binding ${b.binding}: the entry in ${where} of ${config.file} has no id${b.preview_id !== undefined ? " (only a preview_id: pass --preview)" : ""}`
    )
  }
  if (choice.preview === undefined && choice.write && b.preview_id !== undefined) {
    throw new ConfigError(
      `--binding ${b.binding} has both an id and a preview_id in ${config.file}: pass --preview to write to the preview namespace, or --preview false for the production one`
    )
  }
  return label(b.id)
}

/**
 * A binding name from a namespace name, as wrangler derives it: whitespace and `-` become `_`,
 * other characters outside [A-Za-z0-9_] are dropped, runs of `_` collapse, a leading digit gets
 * `_`, and `KV` when nothing is left (`My Cool-NS.2` → `My_Cool_NS2`).
 */
export const bindingName = (namespace: string): string => {
  // Accented letters keep their base letter (`ünï` → `uni`), not nothing: a binding is ASCII.
  let s = namespace
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[\s-]/g, "_")
    .replace(/[^A-Za-z0-9_]/g, "")
    .replace(/_+/g, "_")
  if (s === "" || s === "_") return "KV"
  if (/^[0-9]/.test(s)) s = `_${s}`
  return s
}

/**
 * The title of a new namespace: the project prefix (the config's `name`, `worker` without one),
 * the environment once (`my-worker-staging`, or the environment's own `name` when it has one),
 * the namespace, and `_preview` with --preview. This is wrangler 3's formula without its doubled
 * environment.
 */
export const namespaceTitle = (
  config: ProjectConfig | undefined,
  namespace: string,
  env: string | undefined,
  preview: boolean
): { readonly title: string; readonly defaultPrefix: boolean } => {
  const scope = config !== undefined && env ? scopeFor(config, env) : undefined
  const top = config?.name
  const prefix = scope?.name ?? (top !== undefined ? (env ? `${top}-${env}` : top) : env ? `worker-${env}` : "worker")
  return {
    title: `${prefix}-${namespace}${preview ? "_preview" : ""}`,
    defaultPrefix: scope?.name === undefined && top === undefined
  }
}

/** The lines to add to the config for a new namespace, in the config's own format. */
export const configSnippet = (
  format: ConfigFormat,
  binding: string,
  id: string,
  env: string | undefined,
  preview: boolean
): string => {
  const field = preview ? "preview_id" : "id"
  if (format === "toml") {
    return [
      `[[${env ? `env.${env}.` : ""}kv_namespaces]]`,
      `binding = ${JSON.stringify(binding)}`,
      `${field} = ${JSON.stringify(id)}`
    ].join("\n")
  }
  const entry = { kv_namespaces: [{ binding, [field]: id }] }
  return JSON.stringify(env ? { env: { [env]: entry } } : entry, null, 2)
}
