import { date, field, flag, preset, ref, stamp, text, type FieldOptions } from './field.js'
import type { ListFilter } from './resource.js'

export const idField = ref('id', { readOnly: true, description: 'identifier' })

/** Status, its reason and the dates actions maintain: shared by every resource with a lifecycle. */
export const statusFields = () => [
  preset('status', 'statuses', { readOnly: true, createOnly: true, description: 'current status name' }),
  date('statusChangedStamp', { readOnly: true, description: 'when status last changed' }),
  date('updatedDate', { readOnly: true, description: 'when last dropped or reinstated' }),
  preset('statusReason', 'statusReasons', { readOnly: true, createOnly: true, description: 'reason for current status' }),
]

const stateFlags = () => [flag('isDropped'), flag('isSuspended'), flag('isBillable')]
const systemStamps = () => [stamp('createdStamp'), stamp('updatedStamp'), stamp('droppedStamp'), stamp('reinstatedStamp')]

/** The read-only state flags and system stamps of contract 5.1. */
export const stateFields = () => [...stateFlags(), ...systemStamps()]

/** A customer's state: the flags and stamps of every level, and its final bill (contract 5.1). */
export const customerStateFields = () => [...stateFlags(), flag('isFinalBill'), ...systemStamps()]

/** Stamps only, for resources without a lifecycle (tariffs, contacts). */
export const stampFields = () => [stamp('createdStamp'), stamp('updatedStamp')]

export const crmReference = () => text('CRMReference', { unique: true, description: 'reference in an external CRM; unique' })

/** Filters every lifecycle collection offers. */
export const lifecycleFilters = () => [
  { name: 'CRMReference', filter: { kind: 'equals', column: 'CRMReference' }, description: 'exact CRM reference match' },
  { name: 'dropped', filter: { kind: 'flag', column: 'isDropped', value: true }, description: 'only dropped items' },
  { name: 'active', filter: { kind: 'flag', column: 'isDropped', value: false }, description: 'only active (not dropped) items' },
  { name: 'droppedSince', filter: { kind: 'since', column: 'droppedStamp' }, description: 'dropped since (datetime)' },
  {
    name: 'reinstatedSince',
    filter: { kind: 'since', column: 'reinstatedStamp' },
    description: 'reinstated since (datetime)',
  },
] as const satisfies readonly ListFilter[]

/**
 * The ID of the item a child belongs to (a number's customer, a detail's tariff): set from
 * the path when the child is created, read-only afterwards.
 */
export const ownerRef = <const N extends string, const O extends FieldOptions = {}>(name: N, description: string, o?: O) =>
  ref(name, { readOnly: true, description, ...(o as O) })

/** Marks every field read-only: for resources only the platform writes (invoices, calls, DR files). */
export const allReadOnly = <F extends FieldOptions>(fields: readonly F[]): (F & { readonly readOnly: true })[] =>
  fields.map((f) => ({ ...f, readOnly: true as const }))

/**
 * Bookkeeping of items that a parent can drop: which ancestor's drop cascaded to this item
 * (`customers:12`), so that reinstating that ancestor brings back exactly what it took.
 */
export const cascadeFields = () => [field('droppedBy', 'text', { internal: true, readOnly: true })]

/** A hidden digits-only copy of a number field, indexed for searches that ignore spaces and dashes. */
export const digitsField = <const N extends string>(of: N) =>
  field(`${of}Digits`, 'text', { internal: true, readOnly: true, digitsOf: of })

/** A hidden copy of a number field in the form call records are matched in, indexed for imports. */
export const matchKeyField = <const N extends string>(of: N) =>
  field(`${of}Key`, 'text', { internal: true, readOnly: true, matchKeyOf: of })

/** A hidden copy of a portal login (an email, an account number) in the form sign-in compares it in, indexed for sign-in. */
export const loginKeyField = <const N extends string>(of: N, kind: 'email' | 'account') =>
  field(`${of}Key`, 'text', { internal: true, readOnly: true, loginKeyOf: { field: of, kind } })

/**
 * The end-of-contract notice of an item with a `contractEndDate` (core/contract-ends): the date
 * the `contract-end-notices` job announced it, and the end date it announced. Both are kept: the
 * first is when the customer was told (what Ofcom C1.3's 10 to 40 days are counted by), the second
 * which end it was told of, so that a changed end date (a contract extended) is announced again
 * and the same one never twice. Shown rather than internal: history shows both, and a reader sees
 * at once whether the date now set is the one announced.
 */
export const contractEndNoticeFields = () => [
  date('contractEndNoticeDate', { readOnly: true, extension: true, description: 'when the contract-end-notices job last announced its contract end (event contract.ending)' }),
  date('contractEndNoticeFor', { readOnly: true, extension: true, description: 'the contractEndDate that notice announced; a different contractEndDate is announced again within its notice days' }),
]
