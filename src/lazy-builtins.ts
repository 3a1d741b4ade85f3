/**
 * Node's built-in modules that only some runs use, loaded on first use rather than imported:
 * evaluating node:crypto costs ~4 ms of a start and node:readline ~1 ms, and most commands (a
 * listing, a key read, a credential check with the local token) never call them; node:http is
 * needed only by a served request (`edgectl serve`), never by the in-process platform; node:string_decoder
 * only by a large JSON body read as it arrives (src/server/json-stream.ts).
 * `process.getBuiltinModule` needs Node >= 20.16 (package.json asks for >= 20.19).
 */
export const nodeCrypto = () => process.getBuiltinModule("node:crypto")
export const nodeReadline = () => process.getBuiltinModule("node:readline")
export const nodeHttp = () => process.getBuiltinModule("node:http")
export const nodeStringDecoder = () => process.getBuiltinModule("node:string_decoder")
