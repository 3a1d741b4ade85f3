// A house rule the build enforces on edgectl's own sources (not a patch of a package).
/**
 * Effect's packages by module, never by index, in edgectl's own sources: `import * as Effect from
 * "effect/Effect"`, not `import { Effect } from "effect"`. esbuild splits chunks by file: a chunk
 * that imports a package's index reaches every module of it that any other chunk uses, so one
 * index import at start-up evaluated most of effect, @effect/platform (HttpApiBuilder, its router,
 * OpenApi) and @effect/cli for every command, and made the script 60% larger.
 */
export const modulesNotIndexes = {
  name: "modules-not-indexes",
  setup(b) {
    b.onResolve({ filter: /^(effect|@effect\/[a-z-]+)$/ }, (a) => {
      if (
        a.importer.includes("node_modules") ||
        !/[\\/](src|tui)[\\/]/.test(a.importer) ||
        /\.test\.tsx?$/.test(a.importer)
      )
        return undefined
      return {
        errors: [
          {
            text: `import from "${a.path}/<Module>" instead of "${a.path}" (see build/modules-not-indexes.mjs)`
          }
        ]
      }
    })
  }
}
