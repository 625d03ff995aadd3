import { allReadOnly, idField, stampFields } from './common.js'
import { num, text } from './field.js'
import { defineResource } from './resource.js'

/** Imported usage files (contract 9.6): `POST /usageFiles/` with a CSV body; read-only afterwards. */
export const usageFiles = defineResource({
  name: 'usageFiles',
  singular: 'usage file',
  table: 'usage_files',
  fields: allReadOnly([
    idField,
    text('name', { description: 'the name given with ?name=, if any' }),
    num('rows', { description: 'records in the file' }),
    num('imported', { description: 'records stored (the rest had been imported before)' }),
    num('duplicates', { description: 'records already imported from an earlier file' }),
    num('rated', { description: 'records rated on import' }),
    num('unbilled', { description: 'records kept as unbilled with a reason' }),
    num('ignored', { description: "records from a carrier the number's carrierCallAllocation does not allow: stored, never billed (contract 17.1)" }),
    ...stampFields(),
  ]),
})
