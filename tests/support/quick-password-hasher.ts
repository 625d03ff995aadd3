import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import type { PasswordHasher } from '../../core/ports/password-hasher.js'

const derive = (secret: string, salt: Buffer): Promise<Buffer> =>
  new Promise((resolve, reject) => scrypt(secret, salt, 32, { N: 1024, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))))

/**
 * scrypt at a sixteenth of the platform's cost, for the harness: the suites sign in some hundreds
 * of times, each check about 60 ms of CPU at the platform's N = 16384 and 4 ms here. The
 * platform's own hasher is tested where it is used by a process of its own (servers, workers).
 */
export const quickPasswordHasher: PasswordHasher = {
  async hash(secret) {
    const salt = randomBytes(16)
    return `scrypt$${salt.toString('base64url')}$${(await derive(secret, salt)).toString('base64url')}`
  },
  async verify(secret, stored) {
    const [scheme, salt, key] = stored.split('$')
    if (scheme !== 'scrypt' || !salt || !key) return false
    const expected = Buffer.from(key, 'base64url')
    const actual = await derive(secret, Buffer.from(salt, 'base64url'))
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  },
}
