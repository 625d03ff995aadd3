import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { KeySecrets } from '../../core/ports/key-hasher.js'

/** 192-bit random keys with a recognisable prefix, stored as SHA-256 (keys are high-entropy, so no salt is needed). */
export const nodeKeySecrets: KeySecrets = {
  generate: () => `tbk_${randomBytes(24).toString('base64url')}`,
  hash: (secret) => createHash('sha256').update(secret).digest('hex'),
  equal(a, b) {
    const x = Buffer.from(a, 'hex')
    const y = Buffer.from(b, 'hex')
    return x.length === y.length && timingSafeEqual(x, y)
  },
}
