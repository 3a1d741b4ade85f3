// Statement splitting for user SQL: each statement is prepared on its own (better-sqlite3
// prepares one at a time). What a statement may do is the authorizer's (sql-authorizer.ts).

export interface SqlStatement {
  readonly text: string
  /** Empty for a piece of comments only (always the last piece): running it throws NO_STATEMENT. */
  readonly words: ReadonlyArray<string>
}

/** The platform's error for SQL text (or a piece after a `;`) holding only comments. */
export const NO_STATEMENT = "SQL code did not contain a statement."

// Splits on top-level semicolons; a CREATE TRIGGER body (BEGIN ... END) keeps its own.
export const splitSql = (sql: string): Array<SqlStatement> => {
  const out: Array<SqlStatement> = []
  let start = 0
  let words: Array<string> = []
  let depth = 0
  let i = 0
  const n = sql.length
  // Set at a piece of comments only: the runtime prepares and runs one piece at a time, and that
  // piece prepares to nothing, so it throws there, after the statements before it have run.
  let stop = false
  const flush = (end: number) => {
    const text = sql.slice(start, end).trim()
    if (words.length > 0) out.push({ text, words })
    else if (text !== "") {
      out.push({ text, words: [] })
      stop = true
    }
    words = []
    depth = 0
  }
  while (i < n && !stop) {
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
  if (!stop) flush(n)
  return out
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
