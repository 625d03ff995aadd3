import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import type { PasswordHasher } from '../../core/ports/password-hasher.js'

const KEY_LENGTH = 32

/**
 * scrypt with a random salt per secret: `scrypt$<salt>$<key>` in base64url, at cost `N`. The cost
 * is not in the stored form: hashes are checked by a hasher of the same cost only.
 */
export function scryptHasher(N: number): PasswordHasher {
  const derive = (secret: string, salt: Buffer): Promise<Buffer> =>
    new Promise((resolve, reject) => scrypt(secret, salt, KEY_LENGTH, { N, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))))
  return {
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
}

/** The platform's hasher: scrypt at N = 16384 (about 60 ms of CPU a check). */
export const scryptPasswordHasher: PasswordHasher = scryptHasher(16384)
