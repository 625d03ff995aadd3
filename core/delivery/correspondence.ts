import type { ContactCopy } from '../ports/invoice-outbox.js'

/** The `correspondenceTypes` names (as shipped) of what the platform sends a contact copies of. */
export const correspondenceSent = { invoice: 'Invoice', reminder: 'Overdue Reminder' } as const
export type CorrespondenceSent = (typeof correspondenceSent)[keyof typeof correspondenceSent]

/**
 * Whether a contact gets a copy of `type`: an invoice (contract 14.2) or a dunning reminder or
 * final notice (15.2). As the contract says, a contact with an email bill type other than `None`
 * gets both; its `copyCorrespondenceTypeIDs` adds what it names on top: `Invoice` copies to a
 * contact with no bill type (in the default form; `None` still sends none), `Overdue Reminder`
 * reminders to one whose bill type is unset or `None`. It never takes away what the contract
 * gives; a name the platform sends nothing for (`Statement`, `Welcome Letter`, ...) adds nothing.
 */
export function copiedOn(contact: Pick<ContactCopy, 'emailBillType' | 'correspondence'>, type: CorrespondenceSent): boolean {
  const byBillType = contact.emailBillType !== null && contact.emailBillType !== 'None'
  return byBillType || contact.correspondence.includes(type)
}
