/**
 * How opening, creating or upgrading a store fails. Its own module because db.ts (opening) and
 * migrate.ts (creating or upgrading, which db.ts loads only when a store needs it) both raise it,
 * and neither should import the other for it.
 */
export class StoreError extends Error {
  override readonly name = "StoreError"
}
