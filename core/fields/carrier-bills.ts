import { allReadOnly, idField, ownerRef, stampFields } from './common.js'
import { currency, date, num, ref, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * A carrier's bill for a month, stored with its reconciliation's counts and totals (contract
 * 17.4): `POST /carrierBills/?carrier=&period=` with the bill's CSV; the lines and what each
 * matched: `GET /carrierBills/<id>/reconciliation`.
 */
export const carrierBills = defineResource({
  name: 'carrierBills',
  singular: 'carrier bill',
  table: 'carrier_bills',
  fields: allReadOnly([
    idField,
    text('carrier', { description: 'the carrier whose bill it is' }),
    text('period', { description: 'the month billed, YYYY-MM' }),
    num('lines', { description: "lines on the carrier's bill" }),
    currency('totalCost', { description: "the bill's total" }),
    num('matchedCount', { description: 'lines that match a feature' }),
    currency('matchedCarrierCost', { description: "the carrier's cost of the matched lines" }),
    currency('matchedExpectedCost', { description: 'serviceChargeCarrier × featureCount of their features' }),
    currency('matchedBilled', { description: 'what the customers were billed for those features in the period' }),
    num('notBilledCount', { description: 'lines that match no feature: paid to the carrier, billed to nobody' }),
    currency('notBilledCost', { description: "the carrier's cost of those lines" }),
    num('notOnCarrierBillCount', { description: "the carrier's features active in the period that no line matches" }),
    currency('notOnCarrierBillExpectedCost', { description: 'their serviceChargeCarrier × featureCount' }),
    num('costDiffersCount', { description: 'matched lines whose cost is off the expected by more than 0.01' }),
    currency('costDiffersCarrierCost', { description: "the carrier's cost of those lines" }),
    currency('costDiffersExpectedCost', { description: 'the cost expected for them' }),
    ...stampFields(),
  ]),
})

/**
 * One line of a carrier's bill with what it matched (contract 17.4). The features no line
 * matched are not stored: they are found again when the reconciliation is read.
 */
export const carrierBillLines = defineResource({
  name: 'carrierBillLines',
  singular: 'carrier bill line',
  table: 'carrier_bill_lines',
  fields: allReadOnly([
    idField,
    ownerRef('carrierBillID', 'the bill the line is on'),
    num('line', { description: "the line's number in the bill's CSV (the header is line 1)" }),
    text('productCode', { description: "the carrier's product code" }),
    text('reference', { description: "the carrier's reference (a number, a circuit)" }),
    text('description', { description: "the carrier's description" }),
    num('quantity', { description: 'quantity billed' }),
    currency('cost', { description: "the carrier's cost" }),
    date('periodFrom', { description: 'first day the line bills, if given' }),
    date('periodTo', { description: 'last day the line bills, if given' }),
    text('outcome', { values: ['matched', 'costDiffers', 'notBilled'], description: 'matched, costDiffers (matched, cost off by more than 0.01) or notBilled (no feature)' }),
    ref('featureID', { description: 'the feature the line matched' }),
    currency('expectedCost', { description: "the matched feature's serviceChargeCarrier × featureCount" }),
    currency('billedAmount', { description: 'what the customer was billed for the feature in the period' }),
    ...stampFields(),
  ]),
})
