/**
 * A multipart/form-data body built by hand: what `fetch` would send for a FormData of a `value`
 * and a `metadata` field, without loading Node's fetch implementation (10-20 ms at start-up) for
 * one form in a short-lived command.
 */
import { nodeCrypto } from "../lazy-builtins.js"

export interface FormPart {
  readonly name: string
  readonly value: Uint8Array | string
  /** Sent as a file part (wrangler sends a value read from a file as a Blob). */
  readonly filename?: string
  readonly contentType?: string
}

const quote = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")

export const multipartForm = (
  parts: ReadonlyArray<FormPart>
): { readonly bytes: Uint8Array; readonly contentType: string } => {
  const boundary = `----edgectl${nodeCrypto().randomBytes(12).toString("hex")}`
  const chunks: Array<Buffer> = []
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(p.name)}"`
    if (p.filename !== undefined) head += `; filename="${quote(p.filename)}"`
    head += "\r\n"
    if (p.filename !== undefined || p.contentType !== undefined)
      head += `Content-Type: ${p.contentType ?? "application/octet-stream"}\r\n`
    chunks.push(Buffer.from(`${head}\r\n`, "utf8"))
    chunks.push(
      typeof p.value === "string"
        ? Buffer.from(p.value, "utf8")
        : Buffer.from(p.value.buffer, p.value.byteOffset, p.value.byteLength)
    )
    chunks.push(Buffer.from("\r\n", "utf8"))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "utf8"))
  return { bytes: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}
