import type { RatingData } from '../ports/rating-data.js'
import { buildNumberIndex } from './match-number.js'
import type { RatingContext } from './rate-record.js'

/** Loads what rating needs once per import or billing run. */
export async function loadRatingContext(data: RatingData): Promise<RatingContext> {
  const [numbers, ignores, customers, tariffs] = await Promise.all([data.numbers(), data.ignoreTraffic(), data.customers(), data.tariffs()])
  return { numbers: buildNumberIndex(numbers, ignores), customers, tariffs }
}
