import { idField, loginKeyField, ownerRef, stampFields } from './common.js'
import { each, preset, presets, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * Customer contacts (billing-api.md, Customer contact): direct (customerID set) or shared
 * (customerID null, linked to many customers through the customer actions addSharedContact
 * and removeSharedContact). No lifecycle.
 */
export const customerContacts = defineResource({
  name: 'customerContacts',
  singular: 'customer contact',
  table: 'customer_contacts',
  fields: [
    preset('contactType', 'contactTypes', { description: 'role within the customer organisation' }),
    preset('title', 'titles'),
    text('companyName', { description: 'company or organisation' }),
    ...each(1, 5, (i) => text(`address${i}`, { description: `address line ${i}` })),
    text('postcode'),
    preset('country', 'countries', { description: 'country code' }),
    ...each(1, 4, (i) => preset(`number${i}type`, 'contactNumberTypes', { description: `type of contact number ${i}` })),
    text('email'),
    text('website'),
    // Not empty: an empty password signs in with an empty form (contract 14.3). Null leaves it as
    // it is (every write-only field's null does, so a GET sent back keeps it): a new password replaces it.
    text('accountPassword', { writeOnly: true, minLength: 1, description: 'password for contact account access; write-only, stored hashed; not empty' }),
    text('contactPosition', { description: 'job title' }),
    preset('dealerCode', 'dealers'),
    presets('contactRegarding', 'contactRegarding', { description: 'topics to contact about' }),
    preset('emailBillType', 'billTypes', { description: 'bill type generated for email delivery (Copy Email Bill)' }),
    preset('invoiceUsageReportCustomerProfile', 'usageReportProfiles', {
      description: 'usage report configuration for invoices sent to the contact',
    }),
    presets('copyCorrespondenceTypeIDs', 'correspondenceTypes', { description: 'correspondence types copied to the contact' }),
    presets('copyTicketTypeIDs', 'ticketTypes', { description: 'ticket types whose updates are copied' }),
    idField,
    ownerRef('customerID', 'owning customer; null for a shared contact'),
    // Extensions of the contract (2): the table lists the number types but not the numbers or a name.
    text('firstnames', { extension: true, description: 'first name(s)' }),
    text('lastname', { extension: true, description: 'last name' }),
    ...each(1, 4, (i) => text(`number${i}`, { extension: true, description: `contact number ${i}` })),
    ...stampFields(),
    // The email as a password sign-in compares it (migration 0085).
    loginKeyField('email', 'email'),
  ],
  filters: [
    {
      name: 'dealerCode',
      filter: { kind: 'equals', column: 'dealerCode' },
      description: 'only contacts with that dealer code (used for shared contacts)',
    },
  ],
})
