import type { Store } from '../ports/store.js'

/**
 * The account code each number's `Call Charges` rows are posted under (contract 16.4): the
 * least `callsTransactionCode` of the number's features that set one (as the journal derived it
 * for rows written before codes were kept). Kept with the row when it is written, so a later
 * change of a feature's code moves neither the invoice's line nor a credit note of it: the two
 * offset under one code. Numbers with none are absent (the journal takes the transaction type).
 */
export async function callAccountCodes(store: Store, numberIDs: readonly string[]): Promise<Map<string, string>> {
  const codes = new Map<string, string>()
  if (numberIDs.length === 0) return codes
  const features = await store.repository('features').listIn('numberID', numberIDs, [{ op: 'isNull', column: 'callsTransactionCode', value: false }], { storedOnly: true })
  for (const f of features) {
    const code = f.callsTransactionCode as string | null | undefined
    const numberID = f.numberID as string | null | undefined
    if (!code || !numberID) continue
    const least = codes.get(numberID)
    if (least === undefined || code < least) codes.set(numberID, code)
  }
  return codes
}
