// Public entry of the stateful object storage (spec area F).
export { ObjectStorage, BrokenStorageError, compareUtf8 } from "./storage.js"
export type { GetOptions, PutOptions, StorageConfig } from "./storage.js"
export type { ListOptions } from "./kv.js"
export { SqlStorage, SqlStorageCursor } from "./sql.js"
export { Transaction } from "./transaction.js"
export { StorageLimitError, MAX_KEYS, MAX_KEY_BYTES, MAX_VALUE_BYTES, PITR_WINDOW_MS } from "./limits.js"
export { BookmarkError, parseBookmark, formatBookmark } from "./pitr.js"
