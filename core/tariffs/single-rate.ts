const SINGLE = new Set(['single', 'single rate', 'yes', 'y', 'true', '1'])

/**
 * Whether a call tariff charges one rate at every time (its time bands are then not told apart).
 * Here rather than in rating, which reads it per call, since an increase version reads it too.
 */
export const isSingleRate = (t: { readonly singleRate?: string | null }): boolean =>
  SINGLE.has((t.singleRate ?? '').trim().toLowerCase())
