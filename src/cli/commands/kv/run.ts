/** The work of every `edgectl kv` command, in one module loaded when a KV command runs. */
export { bulkDelete, bulkGet, bulkPut } from "./bulk-run.js"
export { keyDelete, keyGet, keyList, keyPut } from "./key-run.js"
export { namespaceCreate, namespaceDelete, namespaceList, namespaceRename } from "./namespace-run.js"
