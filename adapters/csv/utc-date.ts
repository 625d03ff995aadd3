/**
 * A Date whose local fields are its UTC fields, so date-fns `parse` (which sets local fields)
 * reads a carrier's date and time as UTC whatever the process's time zone: a local time that a
 * daylight-saving change skips (01:30 on the last Sunday of March in London) is still that time.
 * The few methods `parse` and `isValid` use, as @date-fns/utc's UTCDate has them.
 */
export class UTCDate extends Date {
  override getFullYear() { return this.getUTCFullYear() }
  override setFullYear(year: number, month?: number, date?: number) { return month === undefined ? this.setUTCFullYear(year) : date === undefined ? this.setUTCFullYear(year, month) : this.setUTCFullYear(year, month, date) }
  override getMonth() { return this.getUTCMonth() }
  override setMonth(month: number, date?: number) { return date === undefined ? this.setUTCMonth(month) : this.setUTCMonth(month, date) }
  override getDate() { return this.getUTCDate() }
  override setDate(date: number) { return this.setUTCDate(date) }
  override getDay() { return this.getUTCDay() }
  override getHours() { return this.getUTCHours() }
  override setHours(h: number, m?: number, s?: number, ms?: number) { return this.setUTCHours(h, m ?? this.getUTCMinutes(), s ?? this.getUTCSeconds(), ms ?? this.getUTCMilliseconds()) }
  override getMinutes() { return this.getUTCMinutes() }
  override setMinutes(m: number, s?: number, ms?: number) { return this.setUTCMinutes(m, s ?? this.getUTCSeconds(), ms ?? this.getUTCMilliseconds()) }
  override getSeconds() { return this.getUTCSeconds() }
  override setSeconds(s: number, ms?: number) { return this.setUTCSeconds(s, ms ?? this.getUTCMilliseconds()) }
  override getMilliseconds() { return this.getUTCMilliseconds() }
  override setMilliseconds(ms: number) { return this.setUTCMilliseconds(ms) }
  override getTimezoneOffset() { return 0 }
}
