import type { DateOnly } from '../../core/dates/date-only.js'
import { toStamp, type Stamp } from '../../core/dates/stamp.js'
import type { Clock } from '../../core/ports/clock.js'

/** The wall clock, in UTC. */
export class SystemClock implements Clock {
  private lastMs = NaN
  private lastStamp = '' as Stamp

  now(): Stamp {
    // A request reads the clock several times, and a loaded server answers several requests
    // a millisecond: the stamp is formatted once per millisecond.
    const ms = Date.now()
    if (ms !== this.lastMs) {
      this.lastMs = ms
      this.lastStamp = toStamp(ms)
    }
    return this.lastStamp
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
