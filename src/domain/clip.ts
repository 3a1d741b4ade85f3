/** `s` cut to at most `n` characters, an ellipsis marking the cut: a table row or a message stays short. */
export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
