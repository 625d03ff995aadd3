import type { ContactCopy } from '../ports/invoice-outbox.js'

/** The `correspondenceTypes` names (as shipped) of what the platform sends a contact copies of. */
export const correspondenceSent = { invoice: 'Invoice', reminder: 'Overdue Reminder' } as const
export type CorrespondenceSent = (typeof correspondenceSent)[keyof typeof correspondenceSent]

/**
 * Whether a contact gets a copy of `type`: an invoice (contract 14.2) or a dunning reminder or
 * final notice (15.2). With `copyCorrespondenceTypeIDs` unset, as the contract says: a contact with
 * an email bill type other than `None`. Set, it names exactly what the contact is copied on, and
 * wins over the bill type's say on whether a copy goes (an invoice copy still takes the bill type's
 * form, and `None` there sends none); a name the platform sends nothing for (`Statement`,
 * `Welcome Letter`, ...) adds nothing.
 */
export function copiedOn(contact: Pick<ContactCopy, 'emailBillType' | 'correspondence'>, type: CorrespondenceSent): boolean {
  if (contact.correspondence.length > 0) return contact.correspondence.includes(type)
  return contact.emailBillType !== null && contact.emailBillType !== 'None'
}
