import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import type { Random } from '../../core/ports/random.js'

export const nodeRandom: Random = {
  digits: (count) => Array.from({ length: count }, () => String(randomInt(10))).join(''),
  uuid: () => randomUUID(),
  secret: (bytes) => randomBytes(bytes).toString('base64'),
}
