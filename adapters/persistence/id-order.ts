/** IDs are decimal digits without leading zeros: the shorter is the smaller, and equal lengths compare as text. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

/** The items in ID order; as they are when they already are (a page read in order). */
export function inIdOrder<T extends { readonly id: string }>(items: T[]): T[] {
  for (let i = 1; i < items.length; i++) {
    if (compareIds(items[i - 1].id, items[i].id) > 0) return items.sort((a, b) => compareIds(a.id, b.id))
  }
  return items
}
