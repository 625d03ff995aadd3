import type { DateOnly } from '../../core/dates/date-only.js'
import { toStamp, type Stamp } from '../../core/dates/stamp.js'
import type { Clock } from '../../core/ports/clock.js'

/** The wall clock, in UTC. */
export class SystemClock implements Clock {
  now(): Stamp {
    return toStamp(Date.now())
  }
  today(): DateOnly {
    return this.now().slice(0, 10) as DateOnly
  }
}

/** A clock that stands still until moved: tests and simulations. */
export class FixedClock implements Clock {
  private stamp: Stamp
  constructor(start: string) {
    this.stamp = toStamp(Date.parse(start))
  }
  now(): Stamp {
    return this.stamp
  }
  today(): DateOnly {
    return this.stamp.slice(0, 10) as DateOnly
  }
  set(stamp: string): void {
    this.stamp = toStamp(Date.parse(stamp))
  }
  advanceMs(ms: number): void {
    this.stamp = toStamp(Date.parse(this.stamp) + ms)
  }
}
