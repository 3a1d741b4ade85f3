/**
 * The official `cloudflare` SDK pointed at a running local platform, with only the given
 * credentials (the SDK reads the others from the environment unless they are null), and no retries.
 */
import Cloudflare from "cloudflare"
import { World, type Platform } from "./platform.js"

export const sdkClient = (
  p: Platform,
  auth: { apiToken: string } | { apiEmail: string; apiKey: string } = { apiToken: World.allToken }
) =>
  new Cloudflare({
    baseURL: p.baseUrl,
    apiToken: null,
    apiEmail: null,
    apiKey: null,
    userServiceKey: null,
    maxRetries: 0,
    ...auth
  })

/** A zone's id by name, through the SDK's own paginated list. */
export const sdkZoneId = async (client: Cloudflare, name: string) => {
  for await (const z of client.zones.list({ name })) return z.id
  throw new Error(`no zone ${name}`)
}
