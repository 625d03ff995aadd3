import type { Middleware } from 'h3'
import { BillingError } from '../../../core/errors.js'
import type { ApiKey } from '../../../core/ports/api-key-repository.js'
import type { Access } from '../route.js'

/** A route's access beyond a valid key (contract 3): 403101 below expert level 5, 403103 below 3, 403102 without the permission. */
export function accessLevel(access: Access): Middleware {
  return (event, next) => {
    const refusal = accessRefusal(access, event.context.key as ApiKey | undefined)
    if (refusal) throw refusal
    return next()
  }
}

/** Why `key` may not have what `access` guards, or undefined when it may. */
export function accessRefusal(access: Access, key: ApiKey | null | undefined): BillingError | undefined {
  if (access === 'expertLevel5' && (key?.expertLevel ?? 0) < 5) {
    return new BillingError('expert_level_required', 'This operation needs expert level 5 (Full)', 'Use a key with expert level 5.')
  }
  if (access === 'expertLevel3' && (key?.expertLevel ?? 0) < 3) {
    return new BillingError('expert_level_3_required', 'This operation needs expert level 3 (Standard) or above', 'Use a key with expert level 3 or above.')
  }
  if (access === 'dataProtectionDownload' && !key?.permissions.includes('dataProtectionDownload')) {
    return new BillingError('data_protection_required', 'This operation needs data-protection download access', 'Use a key with the dataProtectionDownload permission.')
  }
  return undefined
}
