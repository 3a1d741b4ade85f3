/**
 * The shape of the Terraform catalog (./schema.ts): provider majors, attributes and
 * resources, and the attributes several resources share (the zone, a custom response, a nested
 * block that is an object or a list of objects in 5.x).
 */

export type Major = 3 | 4 | 5
export const ALL: ReadonlyArray<Major> = [3, 4, 5]
export const UP_TO_4: ReadonlyArray<Major> = [3, 4]

export interface TfAttribute {
  readonly name: string
  /** As the provider's documentation writes it (`String`, `Number`, `Block`, `List of Attributes`). */
  readonly type: string
  readonly doc: string
  readonly required?: boolean
  /** The majors that have it (default: every major of its resource). */
  readonly majors?: ReadonlyArray<Major>
  /** The values the provider accepts, when they are a short list. */
  readonly values?: ReadonlyArray<string>
  /** The attributes of a nested block or object. */
  readonly nested?: ReadonlyArray<TfAttribute>
}

export interface TfResource {
  readonly type: string
  readonly doc: string
  readonly majors: ReadonlyArray<Major>
  readonly attributes: ReadonlyArray<TfAttribute>
}

export const zoneId: TfAttribute = { name: "zone_id", type: "String", doc: "the zone's identifier", required: true }

/** `Block` up to 4.x, `single` (object) or `list` (list of objects) in 5.x: one attribute, two shapes. */
export const nested = (
  name: string,
  doc: string,
  five: "single" | "list",
  attrs: ReadonlyArray<TfAttribute>,
  extra: Partial<TfAttribute> = {}
): ReadonlyArray<TfAttribute> => [
  { name, type: "Block", doc, majors: UP_TO_4, nested: attrs, ...extra },
  { name, type: five === "single" ? "Attributes" : "List of Attributes", doc, majors: [5], nested: attrs, ...extra }
]

/** A custom response: what a blocked request gets back. */
export const response: ReadonlyArray<TfAttribute> = [
  {
    name: "content_type",
    type: "String",
    doc: "the content type of `body`",
    values: ["text/plain", "text/xml", "application/json"]
  },
  { name: "body", type: "String", doc: "the response body, in `content_type`" }
]
