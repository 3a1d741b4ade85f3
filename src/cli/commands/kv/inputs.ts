/**
 * What each `edgectl kv` handler takes: the options its command declares (./index.ts), as parsed.
 * Declared apart from the tree so that the handlers need nothing of it; the tree's `Command.make`
 * checks that each command's options parse into its handler's input.
 */
import type * as Option from "effect/Option"

/** The output and target options of every KV command, with wrangler's `--remote false` forms. */
export interface TargetOptions {
  readonly json: boolean
  readonly persistTo: Option.Option<string>
  readonly remote: Option.Option<boolean>
  readonly local: Option.Option<boolean>
  readonly config: Option.Option<string>
  readonly timeout: Option.Option<number>
}

/** The namespace: by its binding in the project config, or by id. */
export interface SelectorOptions {
  readonly binding: Option.Option<string>
  readonly namespaceId: Option.Option<string>
  readonly env: Option.Option<string>
  readonly preview: Option.Option<boolean>
}

type OnNamespace = TargetOptions & SelectorOptions

/** The second namespace of `kv copy` (`--to-…`) and `kv diff` (`--with-…`): its id and its platform. */
export interface OtherSide {
  readonly otherId: Option.Option<string>
  readonly otherRemote: boolean
  readonly otherLocal: boolean
  readonly otherPersistTo: Option.Option<string>
  readonly otherAccount: Option.Option<string>
}

interface Inputs {
  readonly namespaceCreate: TargetOptions & {
    readonly namespace: string
    readonly env: Option.Option<string>
    readonly preview: Option.Option<boolean>
  }
  readonly namespaceList: TargetOptions
  readonly namespaceDelete: OnNamespace & { readonly yes: boolean; readonly name: Option.Option<string> }
  readonly namespaceRename: OnNamespace & { readonly name: Option.Option<string>; readonly newName: string }
  readonly keyPut: OnNamespace & {
    readonly key: string
    readonly value: Option.Option<string>
    readonly path: Option.Option<string>
    readonly ttl: Option.Option<string>
    readonly expiration: Option.Option<string>
    readonly metadata: Option.Option<string>
  }
  readonly keyGet: OnNamespace & { readonly key: string; readonly text: boolean }
  readonly keyList: OnNamespace & { readonly prefix: Option.Option<string> }
  readonly keyDelete: OnNamespace & { readonly key: string }
  readonly bulkPut: OnNamespace & { readonly file: string }
  readonly bulkGet: OnNamespace & { readonly metadata: boolean; readonly file: string }
  readonly bulkDelete: OnNamespace & { readonly yes: boolean; readonly file: string }
  readonly kvExport: OnNamespace & {
    readonly output: Option.Option<string>
    readonly format: Option.Option<string>
    readonly resume: boolean
  }
  readonly kvImport: OnNamespace & { readonly file: string; readonly format: Option.Option<string> }
  readonly kvClear: OnNamespace & { readonly yes: boolean }
  readonly kvCopy: OnNamespace & OtherSide & { readonly dryRun: boolean }
  readonly kvDiff: OnNamespace & OtherSide
}

export type Parsed<K extends keyof Inputs> = Inputs[K]
