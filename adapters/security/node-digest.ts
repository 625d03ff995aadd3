import { createHash } from 'node:crypto'
import type { Digest } from '../../core/ports/digest.js'

export const nodeDigest: Digest = {
  sha256: (text) => createHash('sha256').update(text).digest('hex'),
}
