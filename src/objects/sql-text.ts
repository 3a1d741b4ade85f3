// Statement splitting for user SQL: each statement is prepared on its own (better-sqlite3
// prepares one at a time). What a statement may do is the authorizer's (sql-authorizer.ts).

export interface SqlStatement {
  readonly text: string
  /** Empty for a piece of comments only (always the last piece): running it throws NO_STATEMENT. */
  readonly words: ReadonlyArray<string>
}

/** The platform's error for SQL text (or a piece after a `;`) holding only comments. */
export const NO_STATEMENT = "SQL code did not contain a statement."

/** The runtime's error for a parameter in a statement other than a query's last. */
export const MULTI_PARAMETERS =
  "When executing multiple SQL statements in a single call, only the last statement can have parameters."

// `?`, `?NNN`, `:name`, `@name`, `$name`: outside strings and comments these characters are only parameters.
export const hasParameters = (st: SqlStatement): boolean =>
  st.words.some((w) => w === "?" || w === ":" || w === "@" || w === "$")

// Cuts the query as the runtime's prepare loop does (workerd's prepareSql, MULTI): SQLite prepares
// the first statement, skipping whitespace, comments and empty statements (`;`) before it; after
// it only spaces and newlines are skipped, and anything left (even a lone `;`, a tab or a `\r`) is
// prepared next, the statement before it having run. A piece that prepares to nothing ends the
// list as a statement without words: running it throws NO_STATEMENT. A CREATE TRIGGER body
// (BEGIN ... END) keeps its own semicolons.
export const splitSql = (sql: string): Array<SqlStatement> => {
  const out: Array<SqlStatement> = []
  const n = sql.length
  let p = 0
  for (;;) {
    const begin = skipEmpty(sql, p)
    if (begin >= n) {
      out.push({ text: "", words: [] })
      return out
    }
    const { words, end } = scanStatement(sql, begin)
    out.push({ text: sql.slice(begin, end).trim(), words })
    // The runtime skips exactly these two characters after a statement (not \t, not \r).
    let tail = end < n ? end + 1 : n
    while (sql[tail] === " " || sql[tail] === "\n") tail++
    if (tail >= n) return out
    p = tail
  }
}

// Whitespace as SQLite reads it, comments, and empty statements.
const skipEmpty = (sql: string, from: number): number => {
  const n = sql.length
  let i = from
  while (i < n) {
    const c = sql[i]!
    if (c === ";" || c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f") i++
    else if (c === "-" && sql[i + 1] === "-") {
      const j = sql.indexOf("\n", i)
      i = j < 0 ? n : j + 1
    } else if (c === "/" && sql[i + 1] === "*") {
      const j = sql.indexOf("*/", i + 2)
      i = j < 0 ? n : j + 2
    } else break
  }
  return i
}

// One statement from `from`: its words and where it ends (its top-level `;`, or the end of the text).
const scanStatement = (sql: string, from: number): { readonly words: Array<string>; readonly end: number } => {
  const words: Array<string> = []
  const n = sql.length
  let depth = 0
  let i = from
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
    if (c === ";" && depth === 0) return { words, end: i }
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
    if (!/\s/.test(c) && c !== ";") words.push(c)
    i++
  }
  return { words, end: n }
}

const isTrigger = (words: ReadonlyArray<string>): boolean => {
  if (words.length < 2 || words[0]!.toUpperCase() !== "CREATE") return false
  const second = words[1]!.toUpperCase()
  return (
    second === "TRIGGER" || ((second === "TEMP" || second === "TEMPORARY") && words[2]?.toUpperCase() === "TRIGGER")
  )
}

// VACUUM rewrites the file behind the page log's back (SQLite asks no authorizer about it).
export const guardStatement = (st: SqlStatement): void => {
  if (st.words[0]?.toUpperCase() === "VACUUM") throw new Error("not authorized: SQLITE_AUTH")
}
