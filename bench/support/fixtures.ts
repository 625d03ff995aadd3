import { normaliseNumber } from '../../core/rating/phone-number.js'
import type { BulkColumn, BulkWriter } from './bulk-insert.js'
import { log } from './report.js'

const STAMP = '2026-01-01T09:00:00.000Z'
const t = (name: string): BulkColumn => ({ name, type: 'text' })
const b = (name: string): BulkColumn => ({ name, type: 'bigint' })
const n = (name: string): BulkColumn => ({ name, type: 'integer' })
const lifecycle = [t('status'), t('statusChangedStamp'), n('isDropped'), n('isSuspended'), n('isBillable'), t('createdStamp'), t('updatedStamp')]
const active = ['Active', '2026-01-01', 0, 0, 1, STAMP, STAMP]

/** The searchable values of customer `i` (1-based), as the seeding wrote them. */
export const accountNumberOf = (i: number): string => `ACC${String(i).padStart(8, '0')}`
export const crmReferenceOf = (i: number): string => `CRM-${i}`
/** The `k`-th (0-based) number of customer `i`, as dialled and as stored (with a space). */
export const numberOf = (i: number, k: number): string => `0${String(1_000_000_000 + (i - 1) * 3 + k).slice(1)}`
const spaced = (digits: string) => `${digits.slice(0, 5)} ${digits.slice(5)}`

const customerColumns = [b('id'), t('accountNumber'), t('CRMReference'), t('title'), t('firstnames'), t('lastname'), t('companyName'), t('address1'), t('postcode'), t('email'), t('VATRate'), n('isFinalBill'), t('enteredDate'), ...lifecycle]
const numberColumns = [b('id'), b('customerID'), t('number'), t('numberDigits'), t('numberKey'), t('numberType'), ...lifecycle]
const featureColumns = [b('id'), b('customerID'), b('numberID'), t('featureType'), { name: 'featureCount', type: 'double precision' } as BulkColumn, t('startDate'), b('serviceCharge'), t('serviceChargeInterval'), ...lifecycle]

export interface Shape {
  readonly customers: number
  readonly numbersPerCustomer: number
  /** Features per customer: the first ones on its numbers (one each), the rest on the customer. */
  readonly featuresPerCustomer: number
  /** First day charged (default 2026-01-01). */
  readonly startDate?: string
}

/** Seeds customers with their numbers and features; IDs are dense from 1 (customer i owns numbers (i-1)*N+1..). */
export async function seedCustomers(writer: BulkWriter, shape: Shape): Promise<void> {
  const started = performance.now()
  const { customers: count, numbersPerCustomer: np, featuresPerCustomer: fp } = shape
  await writer.insert('customers', customerColumns, (function* () {
    for (let i = 1; i <= count; i++) {
      yield [i, accountNumberOf(i), crmReferenceOf(i), 'Mr', `First${i}`, `Last${i}`, `Company ${i} Ltd`, `${i} High Street`, 'AB1 2CD', `c${i}@example.com`, 'Standard 20%', 0, '2026-01-01', ...active]
    }
  })())
  await writer.insert('numbers', numberColumns, (function* () {
    for (let i = 1; i <= count; i++) {
      for (let k = 0; k < np; k++) {
        const digits = numberOf(i, k)
        yield [(i - 1) * np + k + 1, i, spaced(digits), digits, normaliseNumber(spaced(digits)), 'Geographic', ...active]
      }
    }
  })())
  await writer.insert('features', featureColumns, (function* () {
    for (let i = 1; i <= count; i++) {
      for (let k = 0; k < fp; k++) {
        const numberID = k < np ? (i - 1) * np + k + 1 : null
        yield [(i - 1) * fp + k + 1, i, numberID, 'Line Rental', 1, shape.startDate ?? '2026-01-01', 100_000, 'Monthly', ...active]
      }
    }
  })())
  await writer.finish(['customers', 'numbers', 'features'])
  log(`seeded ${count.toLocaleString('en-GB')} customers, ${(count * np).toLocaleString('en-GB')} numbers, ${(count * fp).toLocaleString('en-GB')} features in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** The customers' invoicing fields, their held payments and their numbers' minimums and limits (bench/billing-run.ts `--invoicing`). */
export async function seedInvoicing(writer: BulkWriter, customers: number): Promise<void> {
  await writer.exec(`update customers set "billingCycle" = case id % 3 when 0 then 'Monthly' when 1 then 'Quarterly' else 'Annually' end,
    "paymentTerms" = 30, "paymentTermsType" = case id % 3 when 0 then 'Days' when 1 then 'Months' else 'Days after month end' end,
    "paymentMethod" = 'Direct Debit',
    "creditLimit" = case when id % 10 = 1 then 1000000 else null end, "creditAlerts" = '[]'`)
  await writer.exec(`insert into held_credits ("customerID", amount) select id, 50000 from customers where id % 10 = 0`)
  await writer.exec(`update numbers set "lowInvoiceActionValue" = 10000, "creditLimit" = 500000 where id % 20 = 0`)
  await writer.insert('transactions', [b('customerID'), t('transactionType'), t('transactionDate'), b('amount'), b('VATAmount'), n('approved'), n('settles'), t('createdStamp'), t('updatedStamp')], (function* () {
    for (let c = 10; c <= customers; c += 10) yield [c, 'Payment', '2026-01-10', -50_000, 0, 0, 1, '2026-01-10T09:00:00.000Z', '2026-01-10T09:00:00.000Z']
  })())
}
