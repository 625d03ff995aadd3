/** `xs` in runs of at most `size`: what one statement names, within every database's parameter limit. */
export function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size))
  return out
}
