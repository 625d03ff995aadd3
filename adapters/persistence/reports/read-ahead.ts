/**
 * A report's pages read one ahead: the next page's statements run (on Postgres's server, or a
 * SQLite file's reads thread) while this thread writes out the page before, so an answer takes
 * the longer of the two parts, not their sum. `read(after)` reads the page after the one given
 * (null: the first) and returns null past the last; a page's `after` is where the next starts.
 */
export async function* readAhead<P extends { readonly after: string }, T>(read: (after: string | null) => Promise<P | null>, out: (page: P) => T): AsyncGenerator<T> {
  for (let next = started(read(null)); ; ) {
    const page = await next
    if (page === null) return
    next = started(read(page.after))
    yield out(page)
  }
}

/** A read begun before it is awaited: should the answer end first, its failure is no unhandled rejection. */
function started<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined)
  return read
}
