/** Nesting deeper than this is refused: no request body of the API needs more than a few levels. */
export const MAX_JSON_DEPTH = 32

/**
 * What is wrong with the shape of a JSON text that `JSON.parse` accepted, or null: a key given
 * twice in one object (JSON.parse would silently keep the last, and a billing API should not
 * guess which amount was meant), or nesting deeper than `maxDepth`. One pass over the text,
 * no second parse: only keys containing escapes are decoded, so `"a"` and `"\u0061"` collide.
 */
export function jsonStructureProblem(text: string, maxDepth = MAX_JSON_DEPTH): string | null {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: (Set<string> | null)[] = []
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i)
      const top = stack[stack.length - 1]
      if (expectKey && top) {
        const raw = text.slice(i, end + 1)
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1)
        if (top.has(key)) return `the key ${JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key)} is given twice`
        top.add(key)
        expectKey = false
      }
      i = end
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push(c === 0x7b ? new Set() : null)
      if (stack.length > maxDepth) return `it is nested deeper than ${maxDepth} levels`
      expectKey = c === 0x7b
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop()
      expectKey = false
    } else if (c === 0x2c /* , */) {
      expectKey = stack[stack.length - 1] instanceof Set
    }
  }
  return null
}

/** Index of the quote closing the string that opens at `start` (the text is valid JSON). */
function closingQuote(text: string, start: number): number {
  let from = start + 1
  for (;;) {
    const q = text.indexOf('"', from)
    if (q < 0) return text.length - 1
    let backslashes = 0
    for (let b = q - 1; text.charCodeAt(b) === 0x5c; b--) backslashes++
    if (backslashes % 2 === 0) return q
    from = q + 1
  }
}
