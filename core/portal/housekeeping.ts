import type { Clock } from '../ports/clock.js'
import type { PortalSessions } from '../ports/portal-sessions.js'
import { failuresFrom } from './portal-login.js'
import { idleCutoff } from './sign-in.js'

/**
 * Ends sessions idle for more than 30 minutes and forgets failed sign-ins too old to lock
 * anything (contract 14.3). A job does it, not the next sign-in: a portal nobody signs in to
 * successfully, or one under a password-guessing flood, would otherwise keep every row.
 */
export async function sweepPortal(sessions: PortalSessions, clock: Clock): Promise<{ sessions: number; failures: number }> {
  const now = clock.now()
  return { sessions: await sessions.removeIdleBefore(idleCutoff(now)), failures: await sessions.removeFailuresBefore(failuresFrom(now)) }
}
