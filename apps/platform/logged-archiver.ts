import type { DisasterRecoveryArchiver } from '../../core/ports/disaster-recovery-archiver.js'
import type { Logger } from './logger.js'

/**
 * The archiver with its misses logged at `error`: the database lists an archive that storage
 * lacks only when the archive directory was lost, replaced or not mounted, which an operator
 * must hear about before a restore is needed.
 */
export function loggedArchiver(archiver: DisasterRecoveryArchiver, logger: Logger): DisasterRecoveryArchiver {
  return {
    get canWrite() {
      return archiver.canWrite
    },
    write: (filename) => archiver.write(filename),
    remove: (filename) => archiver.remove(filename),
    removeLeftovers: (scope) => archiver.removeLeftovers(scope),
    async open(filename) {
      const content = await archiver.open(filename)
      if (!content) logger.error({ filename }, 'dr-archive-missing')
      return content
    },
  }
}
