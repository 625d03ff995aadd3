import { hash } from 'node:crypto'
import type { Digest } from '../../core/ports/digest.js'

export const nodeDigest: Digest = {
  // The one-shot hash, not createHash().update().digest(): a Hash object per usage record was
  // several times dearer (bench/rating.ts hashes every record's fingerprint). Same digest.
  sha256: (text) => hash('sha256', text, 'hex'),
}
