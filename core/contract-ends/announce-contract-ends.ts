import { addDays, daysBetween, type DateOnly } from '../dates/date-only.js'
import type { Customer } from '../fields/entity.js'
import type { Item } from '../fields/item.js'
import { toWireJson } from '../fields/wire-json.js'
import { describeChanges } from '../history/record-change.js'
import type { PlatformContext } from '../platform.js'
import { contractEndResources, type ContractEndResource } from '../ports/contract-ends.js'
import type { ResourceRepository } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'
import { requiresProtection } from '../presets/regulator-protection.js'

/** The event of an announcement; also what a webhook subscribes to. */
export const CONTRACT_ENDING = 'contract.ending'

const PAGE = 500

/** How many items of each collection one run announced. */
export type ContractEndNotices = Record<ContractEndResource, number>

/**
 * The daily `contract-end-notices` job. `contractEndDate` (billing-api.md: a customer's "contract
 * expiry", a number's and a service's "contract end") is when a commitment ends, and Ofcom
 * General Condition C1.3 wants consumers and small businesses told between 10 and 40 days
 * before it. Each customer, number and service not dropped whose `contractEndDate` is from today
 * to today + the presets' `contractEndNoticeDays` (shipped 40; on the end day itself too, never
 * after it) is announced once for that date, in one transaction (contract 12): the event
 * `contract.ending` (`resource`, `item` as GET answers it, `customerID`, `contractEndDate`,
 * `daysLeft`, and `requiresProtection` from the customer's `regulatorProtectionClass`: whether
 * C1.3's notice is owed), a history entry `contractEndNotice`, and the item's read-only
 * `contractEndNoticeDate` (today) and `contractEndNoticeFor` (the end date announced). A
 * `contractEndDate` changed since (an extended contract) is announced again once the new date is
 * within the window; the same date never twice.
 *
 * The platform does not email the notice itself: the invoice outbox (core/delivery) it would go
 * through is keyed by invoice (`invoice_deliveries.invoiceID`, listed only under its invoice,
 * failures announced as `invoice.delivery_failed`) and has nowhere to say which item and end date
 * a message is about. The event carries what a mailer or CRM needs to send it.
 *
 * The database picks the items (`ContractEnds.due`), a page at a time; each is announced with its
 * row locked and read again, so two runs at once announce it once. Answers the counts.
 */
export async function announceContractEnds(ctx: PlatformContext, signal?: AbortSignal): Promise<ContractEndNotices> {
  const today = ctx.clock.today()
  const last = addDays(today, ctx.presets.contractEndNoticeDays)
  const counts: ContractEndNotices = { customers: 0, numbers: 0, services: 0 }
  for (const resource of contractEndResources) {
    let after = '0'
    for (;;) {
      if (signal?.aborted) return counts
      const page = await ctx.store.contractEnds.due(resource, today, last, after, PAGE)
      for (const id of page) {
        if (signal?.aborted) return counts
        if (await ctx.store.transaction((store) => announce(ctx, store, resource, id, today, last))) counts[resource]++
      }
      if (page.length < PAGE) break
      after = page.at(-1)!
    }
  }
  return counts
}

/** Announces one item under its lock; false when there is nothing to announce any more (another run did, or it changed). */
async function announce(ctx: PlatformContext, store: Store, name: ContractEndResource, id: string, today: DateOnly, last: DateOnly): Promise<boolean> {
  const items = store.repository(name) as unknown as ResourceRepository<Item>
  const item = await items.getForUpdate(id)
  if (!item || item.isDropped === true) return false
  const end = item.contractEndDate as DateOnly | null
  if (end === null || end < today || end > last || item.contractEndNoticeFor === end) return false
  const customer = name === 'customers' ? (item as unknown as Customer) : await store.repository('customers').get(item.customerID as string)
  if (!customer) return false
  const now = ctx.clock.now()
  const after = (await items.update(id, { contractEndNoticeDate: today, contractEndNoticeFor: end, updatedStamp: now }))!
  const resource = ctx.resources.get(name)!
  const { entries } = describeChanges([{ resource, action: 'contractEndNotice', before: item, after }], ctx.clock)
  const data = `{"resource":"${name}","item":${toWireJson(resource, after)},"customerID":${JSON.stringify(customer.id)},"contractEndDate":"${end}","daysLeft":${daysBetween(today, end)},"requiresProtection":${requiresProtection(ctx.presets, customer)}}`
  await store.changes.append(entries, [{ type: CONTRACT_ENDING, data, createdStamp: now }])
  return true
}
