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
}

export type Parsed<K extends keyof Inputs> = Inputs[K]
