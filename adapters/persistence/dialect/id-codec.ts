import type { Integer } from '../schema/tables.js'

/** How IDs and other bigints go to the driver and come back from it. */
export interface IdCodec {
  /** A bigint parameter as the driver wants it. */
  encodeBigint(value: bigint): Integer
  /**
   * An ID (decimal text, as the domain holds IDs) as a parameter: what `encodeBigint(BigInt(id))`
   * would give, accepting and refusing the same texts, without a bigint on the way where the
   * driver takes something cheaper (a billing run encodes four IDs for every ledger row it
   * writes). Every ID a repository sends goes through it.
   */
  encodeId(id: string): Integer
  /** A bigint column value as the driver returns it. */
  decodeBigint(value: unknown): bigint
}

/** Decimal integers of up to 15 digits: exact as numbers (BigInt would also take hex and spaces, and still does beyond this). */
const SHORT_DECIMAL = /^-?\d{1,15}$/

export const sqliteIds: IdCodec = {
  encodeBigint: (v) => v,
  // A number is exact up to 15 digits, and an INTEGER column stores it as the integer it is.
  encodeId: (id) => (SHORT_DECIMAL.test(id) ? Number(id) : BigInt(id)),
  decodeBigint: (v) => BigInt(v as number | bigint | string),
}

/** A bigint's canonical decimal text: no sign on zero, no leading zeros. */
const CANONICAL_ID = /^(0|-?[1-9]\d{0,17})$/

export const postgresIds: IdCodec = {
  // node-postgres has no BigInt serialiser; decimal text is exact.
  encodeBigint: (v) => v.toString(),
  // An ID already in canonical form is the text pg would send; anything else goes through BigInt as before.
  encodeId: (id) => (CANONICAL_ID.test(id) ? id : BigInt(id).toString()),
  decodeBigint: (v) => BigInt(v as string | number),
}
