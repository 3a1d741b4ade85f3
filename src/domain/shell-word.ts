/** `s` as a shell word in a command edgectl prints: as it is when it is safe, else in single quotes. */
export const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`)
