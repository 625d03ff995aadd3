/**
 * A system timestamp: canonical UTC ISO text with milliseconds (`2026-01-02T03:04:05.678Z`).
 * One fixed width makes text order equal time order, so `*Since` filters compare text.
 */
export type Stamp = string & { readonly __stamp: unique symbol }

const DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/

import { parseDate } from './date-only.js'

/** Parses the contract's datetime form; no designator means UTC. Null when malformed or impossible. */
export function parseDatetime(input: unknown): Stamp | null {
  if (typeof input !== 'string') return null
  const m = DATETIME.exec(input)
  if (!m || !parseDate(m[1])) return null
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4])]
  if (h > 23 || mi > 59 || s > 59) return null
  let offsetMin = 0
  if (m[6] && m[6] !== 'Z') {
    const oh = Number(m[6].slice(1, 3))
    const om = Number(m[6].slice(4, 6))
    if (oh > 23 || om > 59) return null
    offsetMin = (m[6][0] === '-' ? -1 : 1) * (oh * 60 + om)
  }
  const ms = m[5] ? Math.floor(Number(`0${m[5]}`) * 1000) : 0
  const [y, mo, d] = m[1].split('-').map(Number)
  const utc = new Date(0)
  utc.setUTCFullYear(y, mo - 1, d)
  utc.setUTCHours(h, mi, s, ms)
  return toStamp(utc.getTime() - offsetMin * 60_000)
}

export function toStamp(epochMs: number): Stamp {
  return new Date(epochMs).toISOString() as Stamp
}
