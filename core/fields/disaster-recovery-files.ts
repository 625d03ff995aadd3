import { allReadOnly, idField, stampFields } from './common.js'
import { date, field, presets, text } from './field.js'
import { drFileStatuses } from '../presets/engine-lists.js'
import { defineResource } from './resource.js'

/**
 * Encrypted backup archives (billing-api.md, Disaster recovery file; contract 8). Read-only:
 * the scheduler writes them; expired files are neither listed nor served.
 */
export const disasterRecoveryFiles = defineResource({
  name: 'disasterRecoveryFiles',
  singular: 'disaster recovery file',
  table: 'disaster_recovery_files',
  fields: allReadOnly([
    date('generatedDate', { description: 'when generated' }),
    date('expiresDate', { description: 'when it expires and is no longer available' }),
    idField,
    presets('status', 'drFileStatuses', { values: drFileStatuses }),
    text('filename', { description: 'file name of the 7z archive' }),
    ...stampFields(),
    // The archive's size in bytes, and when its file was deleted (it expired).
    field('size', 'number', { internal: true }),
    field('removedStamp', 'datetime', { internal: true }),
  ]),
})
