import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { createResourceTable } from '../schema/columns.js'

/** Numbers, services, features, both kinds of tariff with their rates, and contacts. */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const c = catalogue
  await createResourceTable(db, dialect, c.tariffs)
  await createResourceTable(db, dialect, c.fixedFeeTariffs)
  await createResourceTable(db, dialect, c.tariffDetails, { tariffID: `${c.tariffs.table}.id` })
  await createResourceTable(db, dialect, c.fixedFeeTariffDetails, { fixedFeeTariffID: `${c.fixedFeeTariffs.table}.id` })
  await createResourceTable(db, dialect, c.numbers, { customerID: 'customers.id' })
  await createResourceTable(db, dialect, c.services, { customerID: 'customers.id' })
  await createResourceTable(db, dialect, c.features, {
    customerID: 'customers.id',
    numberID: `${c.numbers.table}.id`,
    serviceID: `${c.services.table}.id`,
  })
  await createResourceTable(db, dialect, c.customerContacts, { customerID: 'customers.id' })
  // Shared contacts linked to customers (addSharedContact / removeSharedContact).
  await db.schema
    .createTable('customer_shared_contacts')
    .addColumn('customerID', dialect.idRefType, (col) => col.notNull().references('customers.id'))
    .addColumn('contactID', dialect.idRefType, (col) => col.notNull().references(`${c.customerContacts.table}.id`))
    .addPrimaryKeyConstraint('customer_shared_contacts_pk', ['customerID', 'contactID'])
    .execute()
  await db.schema.createIndex('customer_shared_contacts_contact_idx').on('customer_shared_contacts').column('contactID').execute()
}
