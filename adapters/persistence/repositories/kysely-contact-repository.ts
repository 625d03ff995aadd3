import type { CustomerContact } from '../../../core/fields/entity.js'
import type { ContactRepository, ListQuery, ResourceRepository } from '../../../core/ports/resource-repository.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'

const LINKS = 'customer_shared_contacts'

/**
 * Contacts and their links to customers (shared contacts). Its rows are `CustomerContact`s; the
 * store hands it out typed as such (`KyselyStore.repository`).
 */
export class KyselyContactRepository extends KyselyResourceRepository implements Omit<ContactRepository, keyof ResourceRepository> {
  async listForCustomer(customerID: string, query: ListQuery): Promise<CustomerContact[]> {
    const id = this.dialect.encodeId(customerID)
    let q = this.conditions.apply(this.select(), query.where).where((eb) =>
      eb.or([
        eb(`${this.table}.customerID`, '=', id),
        eb(`${this.table}.id`, 'in', eb.selectFrom(LINKS).select('contactID').where('customerID', '=', id)),
      ]),
    )
    if (query.idAfter !== undefined) q = q.where(`${this.table}.id`, '>', this.dialect.encodeId(query.idAfter))
    q = q.orderBy(`${this.table}.id`).limit(query.limit)
    if (query.offset) q = q.offset(query.offset)
    return (await q.execute()).map((r) => this.codec.decode(r) as CustomerContact)
  }

  /** Links them, or leaves the link there is: one statement, so that copies of one request at once all succeed. */
  async link(customerID: string, contactID: string): Promise<void> {
    await this.db
      .insertInto(LINKS)
      .values({ customerID: this.dialect.encodeId(customerID), contactID: this.dialect.encodeId(contactID) })
      .onConflict((oc) => oc.columns(['customerID', 'contactID']).doNothing())
      .execute()
  }

  async unlink(customerID: string, contactID: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom(LINKS)
      .where('customerID', '=', this.dialect.encodeId(customerID))
      .where('contactID', '=', this.dialect.encodeId(contactID))
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }

  async isLinked(customerID: string, contactID: string): Promise<boolean> {
    const row = await this.db
      .selectFrom(LINKS)
      .select('contactID')
      .where('customerID', '=', this.dialect.encodeId(customerID))
      .where('contactID', '=', this.dialect.encodeId(contactID))
      .executeTakeFirst()
    return row !== undefined
  }

  async unlinkAll(by: { customerID?: string; contactID?: string }): Promise<void> {
    let q = this.db.deleteFrom(LINKS)
    if (by.customerID) q = q.where('customerID', '=', this.dialect.encodeId(by.customerID))
    if (by.contactID) q = q.where('contactID', '=', this.dialect.encodeId(by.contactID))
    if (!by.customerID && !by.contactID) throw new Error('unlinkAll needs a customer or a contact')
    await q.execute()
  }
}
