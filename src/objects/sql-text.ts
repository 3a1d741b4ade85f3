// Statement splitting and the checks run on user SQL before SQLite sees it. better-sqlite3 has no
// authorizer hook, so the reserved `_cf_` names and transaction statements are found here, on the
// tokens (string literals and comments stripped), not on raw text.

export interface SqlStatement {
  readonly text: string
  readonly words: ReadonlyArray<string>
}

// Splits on top-level semicolons; a CREATE TRIGGER body (BEGIN ... END) keeps its own.
export const splitSql = (sql: string): Array<SqlStatement> => {
  const out: Array<SqlStatement> = []
  let start = 0
  let words: Array<string> = []
  let depth = 0
  let i = 0
  const n = sql.length
  const flush = (end: number) => {
    const text = sql.slice(start, end).trim()
    if (words.length > 0) out.push({ text, words })
    words = []
    depth = 0
  }
  while (i < n) {
    const c = sql[i]!
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c
      let j = i + 1
      while (j < n) {
        if (sql[j] === close) {
          if (close !== "]" && sql[j + 1] === close) {
            j += 2
            continue
          }
          break
        }
        j++
      }
      if (c !== "'") words.push(sql.slice(i + 1, j).replace(close + close, close))
      else words.push("'")
      i = j + 1
      continue
    }
    if (c === "-" && sql[i + 1] === "-") {
      const j = sql.indexOf("\n", i)
      i = j < 0 ? n : j + 1
      continue
    }
    if (c === "/" && sql[i + 1] === "*") {
      const j = sql.indexOf("*/", i + 2)
      i = j < 0 ? n : j + 2
      continue
    }
    if (c === ";") {
      if (depth === 0) {
        flush(i)
        start = i + 1
      }
      i++
      continue
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++
      const w = sql.slice(i, j)
      const up = w.toUpperCase()
      if (isTrigger(words)) {
        if (up === "BEGIN" || up === "CASE") depth++
        else if (up === "END" && depth > 0) depth--
      }
      words.push(w)
      i = j
      continue
    }
    if (!/\s/.test(c)) words.push(c)
    i++
  }
  flush(n)
  return out
}

const isTrigger = (words: ReadonlyArray<string>): boolean => {
  if (words.length < 2 || words[0]!.toUpperCase() !== "CREATE") return false
  const second = words[1]!.toUpperCase()
  return (
    second === "TRIGGER" || ((second === "TEMP" || second === "TEMPORARY") && words[2]?.toUpperCase() === "TRIGGER")
  )
}

export const TRANSACTION_REFUSED =
  "To execute a transaction, please use the state.storage.transaction() or state.storage.transactionSync() APIs instead of the SQL BEGIN TRANSACTION or SAVEPOINT statements. The JavaScript API is safer because it will automatically roll back on exceptions, and because it interacts correctly with automatic atomic write coalescing."

const TX_WORDS = new Set(["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"])
const FORBIDDEN_PRAGMA = new Set([
  "JOURNAL_MODE",
  "WAL_CHECKPOINT",
  "WAL_AUTOCHECKPOINT",
  "LOCKING_MODE",
  "WRITABLE_SCHEMA"
])

// Throws on what user SQL may not do; returns nothing.
export const guardStatement = (st: SqlStatement): void => {
  const first = st.words[0]!.toUpperCase()
  if (TX_WORDS.has(first)) throw new Error(TRANSACTION_REFUSED)
  if (first === "ATTACH" || first === "DETACH")
    throw new Error(`${first} is not allowed in object storage SQL: SQLITE_AUTH`)
  if (first === "VACUUM") throw new Error("VACUUM is not allowed in object storage SQL: SQLITE_AUTH")
  if (first === "PRAGMA") {
    const name = (st.words[1] === "main" || st.words[1] === "temp") && st.words[2] === "." ? st.words[3] : st.words[1]
    if (name !== undefined && FORBIDDEN_PRAGMA.has(name.toUpperCase())) {
      throw new Error(`PRAGMA ${name} is not allowed in object storage SQL: SQLITE_AUTH`)
    }
  }
  for (const w of st.words) {
    if (w.length >= 4 && (w[0] === "_" || w[0] === "_") && w.slice(0, 4).toLowerCase() === "_cf_") {
      throw new Error(
        first === "CREATE"
          ? `not authorized: ${w}: names beginning with _cf_ are reserved for the object's key-value data: SQLITE_AUTH`
          : `access to ${w} is prohibited: names beginning with _cf_ are reserved for the object's key-value data: SQLITE_AUTH`
      )
    }
  }
}
