import * as assert from 'uvu/assert'
import { errorCodeOf, isBillingError } from '../../index.js'

/** A library call's failure as the API answers it: its error code and message (it must be a BillingError). */
export async function failure(call: () => Promise<unknown>): Promise<{ error_code: number; error: string }> {
  try {
    await call()
  } catch (error) {
    assert.ok(isBillingError(error), String(error))
    return { error_code: errorCodeOf(error), error: (error as Error).message }
  }
  throw new Error('expected a failure')
}
