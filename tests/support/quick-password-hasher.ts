import { scryptHasher } from '../../adapters/security/scrypt-password-hasher.js'

/**
 * scrypt at a sixteenth of the platform's cost, for the harness: the suites sign in some hundreds
 * of times, each check about 60 ms of CPU at the platform's N = 16384 and 4 ms here.
 * tests/http/customer-actions.test.ts keeps the platform's own hasher and checks a hash with it.
 */
export const quickPasswordHasher = scryptHasher(1024)
