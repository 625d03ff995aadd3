import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'

/** Where the domain learns the time; tests pin it, production reads the system clock. */
export interface Clock {
  now(): Stamp
  today(): DateOnly
}
