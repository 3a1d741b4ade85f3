// `ctx`, what an object class's constructor gets (the platform's DurableObjectState). Its own
// module: the instance makes it, and the class types and `cloudflare:workers` name it.
import type { ObjectId } from "./ids.js"
import type { StorageApi } from "./storage-api.js"

export interface ObjectState {
  readonly id: ObjectId
  readonly storage: StorageApi
  blockConcurrencyWhile<T>(callback: () => Promise<T> | T): Promise<T>
  abort(reason?: unknown): never
  waitUntil(promise: Promise<unknown>): void
}
