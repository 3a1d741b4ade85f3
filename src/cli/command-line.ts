/**
 * The command line checked against the command tree before @effect/cli parses it: an unknown
 * command or option, an option that takes a value given none, a word more than the command takes
 * or an argument missing, each a usage error (exit 2) naming what is wrong and what the command
 * takes, where the library names the next word or says "Received unknown argument" or "Missing
 * argument <SQL>". It reads @effect/cli 0.77's descriptor
 * nodes (test/build/library-internals.test.ts checks the shapes it reads).
 */
import type * as Command from "@effect/cli/Command"
import type * as ValidationError from "@effect/cli/ValidationError"
import * as Either from "effect/Either"
import { booleanProblem } from "./options.js"
import { CliFailure, usage } from "./run.js"

// @effect/cli's Command is invariant in its parsed value, and each command here parses its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command.Command<string, never, CliFailure | ValidationError.ValidationError, any>

/**
 * The command tree as @effect/cli 0.77 builds it (its descriptor nodes; the library's own accessor
 * flattens the levels): a `Subcommands` node is a parent command with its children.
 */
interface Node {
  readonly _tag: "Standard" | "GetUserInput" | "Map" | "Subcommands"
  readonly name?: string
  readonly command?: Node
  readonly parent?: Node
  readonly children?: ReadonlyArray<Node>
  /** A command's options (a `Standard` node's), as @effect/cli's Options descriptors. */
  readonly options?: OptionNode
  /** A command's positional arguments (a `Standard` node's), as @effect/cli's Args descriptors. */
  readonly args?: ArgsNode
}
interface ArgsNode {
  readonly _tag: string
  /** `<key>`: a `Single` argument's name as the usage shows it. */
  readonly name?: string
  readonly args?: ArgsNode
  readonly left?: ArgsNode
  readonly right?: ArgsNode
  /** A `Variadic` argument's bounds (Options: `{ _tag: "Some", value }` or none). */
  readonly min?: { readonly _tag?: string; readonly value?: number }
  readonly max?: { readonly _tag?: string; readonly value?: number }
}

/**
 * The positional arguments a command takes, as its usage names them (`<key>`, `[<value>]`,
 * `<file>...`), how many it needs and how many at most.
 */
const positionals = (
  a: ArgsNode | undefined
): { readonly names: ReadonlyArray<string>; readonly min: number; readonly max: number } => {
  if (a === undefined || typeof a !== "object") return { names: [], min: 0, max: 0 }
  switch (a._tag) {
    case "Single":
      return { names: [a.name ?? "<arg>"], min: 1, max: 1 }
    case "Both": {
      const l = positionals(a.left)
      const r = positionals(a.right)
      return { names: [...l.names, ...r.names], min: l.min + r.min, max: l.max + r.max }
    }
    case "WithDefault": {
      const inner = positionals(a.args)
      return { names: inner.names.map((n) => `[${n}]`), min: 0, max: inner.max }
    }
    case "Variadic": {
      const inner = positionals(a.args)
      const bound = (o: ArgsNode["max"], none: number) =>
        o?._tag === "Some" && typeof o.value === "number" ? o.value : none
      return {
        names: inner.names.map((n) => `${n}...`),
        min: inner.min * bound(a.min, 0),
        max: inner.max * bound(a.max, Infinity)
      }
    }
    case "Empty":
      return { names: [], min: 0, max: 0 }
    default:
      return positionals(a.args)
  }
}
interface OptionNode {
  readonly _tag: string
  readonly name?: string
  readonly aliases?: ReadonlyArray<string>
  readonly options?: OptionNode
  readonly left?: OptionNode
  readonly right?: OptionNode
  readonly argumentOption?: OptionNode
  readonly primitiveType?: { readonly _tag: string }
  /** What the help shows after a value-taking option: `FILE`, `DIR`, `N`. */
  readonly placeholder?: string
}
/** `--NAME` of every option a command takes and its long aliases (the `Single` leaves of its Options tree). */
const optionNames = (o: OptionNode | undefined, into = new Set<string>()): Set<string> => {
  if (o === undefined || typeof o !== "object") return into
  if (o._tag === "Single" && typeof o.name === "string") {
    into.add(`--${o.name}`)
    for (const alias of o.aliases ?? []) if (alias.length > 1) into.add(`--${alias}`)
  }
  for (const child of [o.options, o.left, o.right, o.argumentOption]) optionNames(child, into)
  return into
}
/** What @effect/cli answers on every command itself. */
const BuiltInOptions = new Set(["--help", "--version", "--wizard", "--completions", "--log-level"])
const unwrap = (n: Node): Node => (n._tag === "Map" ? unwrap(n.command!) : n)
const nameOf = (n: Node): string => {
  const u = unwrap(n)
  return u._tag === "Subcommands" ? nameOf(u.parent!) : (u.name ?? "")
}
const childrenOf = (n: Node): ReadonlyArray<Node> => {
  const u = unwrap(n)
  return u._tag === "Subcommands" ? u.children! : []
}

/**
 * `edgectl zones lst`: a usage error naming the subcommands there are (@effect/cli names only the
 * root's). `edgectl rules check --persist-to DIR`: a usage error naming the options the command
 * takes (@effect/cli would read an unknown `--word` as the value of a positional argument, and blame
 * the next word). Undefined when the command line names a command and only its options.
 */
export const walkCommand = (
  command: AnyCommand,
  args: ReadonlyArray<string>
): Either.Either<
  { readonly path: ReadonlyArray<string>; readonly node: Node; readonly rest: ReadonlyArray<string> },
  CliFailure
> => {
  let node = command.descriptor as unknown as Node
  const path = [args[0]!]
  let rest = args.slice(1)
  while (rest.length > 0 && !rest[0]!.startsWith("-") && childrenOf(node).length > 0) {
    const children = childrenOf(node)
    const next = children.find((c) => nameOf(c) === rest[0])
    if (next === undefined) {
      return Either.left(
        usage(
          `unknown command "${[...path, rest[0]].join(" ")}" (edgectl ${path.join(" ")} has: ${children.map(nameOf).join(", ")})`
        )
      )
    }
    path.push(rest[0]!)
    node = next
    rest = rest.slice(1)
  }
  return Either.right({ path, node, rest })
}

/**
 * A usage error for the command line, or the line as @effect/cli should parse it. `edgectl zones`
 * (a group alone) is a missing argument: exit 2 naming the commands there are, as any other.
 * `--ttl=` is `--ttl ""`, so the option's own check names it (@effect/cli reports an empty value
 * after `=` as an unknown argument); a boolean flag takes no empty value.
 */
export const checkCommandLine = (
  command: AnyCommand,
  args: ReadonlyArray<string>
): Either.Either<ReadonlyArray<string>, CliFailure> => {
  const walked = walkCommand(command, args)
  if (Either.isLeft(walked)) return Either.left(walked.left)
  const { path, node, rest } = walked.right
  const leaf = unwrap(node)
  if (leaf._tag !== "Standard") {
    const children = childrenOf(node)
    if (children.length === 0) return Either.right(args)
    return Either.left(
      new CliFailure({
        text: `error: edgectl ${path.join(" ")} needs a command: ${children.map(nameOf).join(", ")}\nhint: run \`edgectl ${path.join(" ")} --help\` for what each does`,
        exitCode: 2
      })
    )
  }
  const known = optionNames(leaf.options)
  const values = valueOptions(leaf.options)
  const flags = booleanOptions(leaf.options)
  const shortValues = shortValueOptions(leaf.options)
  const accepts = positionals(leaf.args)
  let given = 0
  // A word more than the command takes: @effect/cli says "Received unknown argument", naming neither.
  const positional = (word: string): CliFailure | undefined =>
    ++given <= accepts.max
      ? undefined
      : new CliFailure({
          text: `error: unexpected argument ${JSON.stringify(word)}: edgectl ${path.join(" ")} takes ${accepts.names.length === 0 ? "no arguments" : accepts.names.join(" ")}\nhint: run \`edgectl ${path.join(" ")} --help\` for what it takes`,
          exitCode: 2
        })
  const out: Array<string> = [...args.slice(0, args.length - rest.length)]
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    if (arg === "--") {
      for (const word of rest.slice(i + 1)) {
        const extra = positional(word)
        if (extra !== undefined) return Either.left(extra)
      }
      out.push(...rest.slice(i))
      break
    }
    const name = /^(--[^=]+)/.exec(arg)?.[1]
    if (name === undefined || BuiltInOptions.has(name)) {
      out.push(arg)
      if (name !== undefined) continue
      if (arg.length > 1 && arg.startsWith("-")) {
        // `-o FILE`: a short option's value is not an argument.
        if (shortValues.has(arg) && i + 1 < rest.length) out.push(rest[++i]!)
        continue
      }
      const extra = positional(arg)
      // `--proxied maybe`: the word is the flag's value it does not take, not an argument.
      const before = rest[i - 1]
      if (extra !== undefined && before !== undefined && flags.has(before))
        return Either.left(usage(booleanProblem(before, arg)))
      if (extra !== undefined) return Either.left(extra)
      continue
    }
    if (!known.has(name)) {
      const takes = known.size === 0 ? "takes no options" : `takes: ${[...known].sort().join(", ")}`
      return Either.left(usage(`unknown option ${name} (edgectl ${path.join(" ")} ${takes})`))
    }
    const takes = arg === name ? values.get(name) : undefined
    if (takes !== undefined) {
      // `--replay --zone Z` or `--replay` last: @effect/cli would take the next option as the value
      // and complain of another, or name the option an unknown argument.
      const next = rest[i + 1]
      const nextName = next === undefined ? undefined : /^(--[^=]+)/.exec(next)?.[1]
      const got =
        next === undefined
          ? "got nothing"
          : nextName !== undefined && (known.has(nextName) || BuiltInOptions.has(nextName))
            ? `got the option ${nextName}`
            : undefined
      if (got !== undefined)
        return Either.left(
          new CliFailure({
            text: `error: ${name}: expected ${takes} after it, ${got}\nhint: run \`edgectl ${path.join(" ")} --help\` for what ${name} takes`,
            exitCode: 2
          })
        )
    }
    if (arg !== `${name}=`) {
      out.push(arg)
      const next = rest[i + 1]
      if (arg === name && next !== undefined && (values.has(name) || (flags.has(name) && /^(true|false)$/.test(next))))
        out.push(rest[++i]!)
      continue
    }
    if (flags.has(name)) return Either.left(usage(booleanProblem(name, "")))
    out.push(name, "")
  }
  // An argument missing: @effect/cli says "Missing argument <SQL>", naming neither the command nor
  // what it takes.
  if (given < accepts.min)
    return Either.left(
      new CliFailure({
        text: `error: missing argument ${accepts.names[given] ?? "<arg>"}: edgectl ${path.join(" ")} takes ${accepts.names.join(" ")}\nhint: run \`edgectl ${path.join(" ")} --help\` for what it takes`,
        exitCode: 2
      })
    )
  return Either.right(out)
}

/** `--NAME` of the options of `o` that take a value, with what the help calls it (`FILE`, `N`). */
const valueOptions = (o: OptionNode | undefined, into = new Map<string, string>()): Map<string, string> => {
  if (o === undefined || typeof o !== "object") return into
  if (o._tag === "Single" && typeof o.name === "string" && o.primitiveType?._tag !== "Bool") {
    const p = o.placeholder ?? ""
    const what = p.includes("|") ? `one of ${p.split("|").join(", ")}` : /^[A-Z]/.test(p) ? p : "a value"
    into.set(`--${o.name}`, what)
    for (const alias of o.aliases ?? []) if (alias.length > 1) into.set(`--${alias}`, what)
  }
  for (const child of [o.options, o.left, o.right, o.argumentOption]) valueOptions(child, into)
  return into
}

/** `--NAME` of the options of `o` that are flags (true or false, or no value). */
const booleanOptions = (o: OptionNode | undefined, into = new Set<string>()): Set<string> => {
  if (o === undefined || typeof o !== "object") return into
  if (o._tag === "Single" && typeof o.name === "string" && o.primitiveType?._tag === "Bool") into.add(`--${o.name}`)
  for (const child of [o.options, o.left, o.right, o.argumentOption]) booleanOptions(child, into)
  return into
}

/** `-X` of the options of `o` that take a value, by their one-letter aliases (`-o FILE`, `-c FILE`). */
const shortValueOptions = (o: OptionNode | undefined, into = new Set<string>()): Set<string> => {
  if (o === undefined || typeof o !== "object") return into
  if (o._tag === "Single" && typeof o.name === "string" && o.primitiveType?._tag !== "Bool")
    for (const alias of o.aliases ?? []) if (alias.length === 1) into.add(`-${alias}`)
  for (const child of [o.options, o.left, o.right, o.argumentOption]) shortValueOptions(child, into)
  return into
}
