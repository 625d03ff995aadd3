import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { formatMoney } from '../../core/money/money.js'
import { buildNumberIndex, matchNumber } from '../../core/rating/match-number.js'
import { isRated, rateRecord, type RatingContext, type RatingNumber } from '../../core/rating/rate-record.js'
import type { RatingTariff } from '../../core/rating/rating-tariff.js'
import type { UsageRecord } from '../../core/rating/usage-record.js'
import { usage } from '../support/usage-records.js'

// The terms a number gives each CDR number (billing-api.md, numbers): direction, origination, band.
const test = suite('core/rating CDR number terms')

const outbound = (callingNumber: string) => usage({ callingNumber })
const inbound = (dialledNumber: string) => usage({ callClass: 'inbound', callingNumber: '07700 900123', dialledNumber })

/** Which number the record matched and by which field, or why none. */
function owner(numbers: readonly RatingNumber[], record: UsageRecord): string {
  const m = matchNumber(buildNumberIndex(numbers), record)
  return 'unmatchedReason' in m ? m.unmatchedReason : `${m.number.numberID} ${m.matchedBy}`
}

test('a CDR number flagged Outbound or Inbound matches records of that direction only', () => {
  const a: RatingNumber = { numberID: 'a', customerID: 'c', number: '01632 960001', CDRNumber: '020 7946 0001', CDRNumberCallTypeDirectionFlag: 'Outbound' }
  const b: RatingNumber = { numberID: 'b', customerID: 'c', number: '01632 960002', CDRNumber2: '020-7946-0001' }
  const c: RatingNumber = { numberID: 'c', customerID: 'c', number: '01632 960003', CDRNumber3: '0161 496 0002', CDRNumberCallTypeDirectionFlag3: 'Inbound' }
  const d: RatingNumber = { numberID: 'd', customerID: 'c', number: '01632 960004', CDRNumber4: '0161 496 0003', CDRNumberCallTypeDirectionFlag4: 'Both' }
  const numbers = [a, b, c, d]
  assert.is(owner(numbers, outbound('02079460001')), 'a CDRNumber')
  // a's CDR number is not inbound: the digits go to the next number that claims them for inbound
  assert.is(owner(numbers, inbound('+44 20 7946 0001')), 'b CDRNumber2')
  assert.is(owner([a], inbound('02079460001')), 'no matching number')
  assert.is(owner(numbers, inbound('01614960002')), 'c CDRNumber3')
  assert.is(owner(numbers, outbound('01614960002')), 'no matching number')
  // Both, and unset, match either direction, as before
  assert.is(owner(numbers, outbound('01614960003')), 'd CDRNumber4')
  assert.is(owner(numbers, inbound('01614960003')), 'd CDRNumber4')
  // a number's own `number` is of both directions, whatever its CDR numbers' flags
  assert.is(owner(numbers, inbound('01632960001')), 'a number')
})

test('precedence holds for each direction: number, then CDRNumber, CDRNumber2, ...; the first given among equals', () => {
  const first: RatingNumber = { numberID: 'first', customerID: 'c', CDRNumber2: '0161 496 0005', CDRNumberCallTypeDirectionFlag2: 'Inbound' }
  const second: RatingNumber = { numberID: 'second', customerID: 'c', CDRNumber2: '0161 496 0005' }
  const later: RatingNumber = { numberID: 'later', customerID: 'c', CDRNumber3: '0161 496 0005', CDRNumberCallTypeDirectionFlag3: 'Outbound' }
  const sold: RatingNumber = { numberID: 'sold', customerID: 'c', number: '0161 496 0005' }
  assert.is(owner([first, second, later], inbound('01614960005')), 'first CDRNumber2')
  assert.is(owner([first, second, later], outbound('01614960005')), 'second CDRNumber2')
  assert.is(owner([first, later], outbound('01614960005')), 'later CDRNumber3')
  assert.is(owner([first, later, sold], outbound('01614960005')), 'sold number')
  assert.is(owner([first, later, sold], inbound('01614960005')), 'sold number')
})

const tariff: RatingTariff = {
  id: 't',
  name: 'T',
  baseCost: 0.01,
  baseSurchargeMobileOrigination: 0.5,
  baseSurchargePayphoneOrigination: 2,
  details: [
    { chargeBand: 'UK', timeBand: 'any', cost: 0.1 },
    { chargeBand: 'Premium', timeBand: 'any', cost: 1 },
  ],
}

const flagged: RatingNumber = {
  numberID: 'n',
  customerID: 'c',
  number: '01632 960000',
  nationalTariff: 'T',
  CDRNumber: '0113 496 0001',
  CDRNumberChargeBand: 'Satellite',
  CDRNumber2: '0113 496 0002',
  useCallTypeOriginationTypeFlag2: 'Mobile',
  CDRNumberChargeBand2: 'Premium',
  CDRNumber3: '0113 496 0003',
  useCallTypeOriginationTypeFlag3: 'Fixed',
  CDRNumber4: '0113 496 0004',
  CDRNumberChargeBand4: ' premium ',
}

function rated(record: UsageRecord, seen: UsageRecord[] = []): string {
  const context: RatingContext = { numbers: buildNumberIndex([flagged]), customers: new Map(), tariffs: new Map([['T', tariff]]) }
  const r = rateRecord(record, context, (_n, used) => (seen.push(used), null))
  return isRated(r) ? `${formatMoney(r.cost)} ${r.chargeBand} ${r.origination}` : 'unbilledReason' in r ? r.unbilledReason : r.ignoredReason
}

test('a call matched through a CDR number is rated as of its origination type and in its charge band', () => {
  // by `number`: the file's band and origination, 1 min × 0.10
  assert.is(rated(outbound('01632960000')), '0.1000 UK fixed')
  assert.is(rated(usage({ origination: 'payphone' })), '2.1000 UK payphone')
  // CDRNumber2: Premium (1.00/min) and Mobile (0.50/min surcharge), whatever the file says
  const seen: UsageRecord[] = []
  assert.is(rated(outbound('0113 496 0002'), seen), '1.5000 Premium mobile')
  assert.is(rated(usage({ callingNumber: '01134960002', chargeBand: 'Local', origination: 'payphone' })), '1.5000 Premium mobile')
  // the allowance is asked of the call as priced
  assert.is(seen[0].chargeBand, 'Premium')
  // CDRNumber3: Fixed takes a payphone record's surcharge away; no band of its own keeps the file's
  assert.is(rated(usage({ callingNumber: '01134960003', origination: 'payphone' })), '0.1000 UK fixed')
  // CDRNumber4: a band alone; the file's origination stays
  assert.is(rated(usage({ callingNumber: '01134960004', origination: 'mobile' })), '1.5000 premium mobile')
  // a band no detail has is priced by the tariff's base cost, as such a band from the file would be
  assert.is(rated(outbound('01134960001')), '0.0100 Satellite fixed')
})

test.run()
