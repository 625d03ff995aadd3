import { AsyncLocalStorage } from 'node:async_hooks'
import type { Actor } from '../../core/ports/change-log.js'

const scope = new AsyncLocalStorage<Actor>()

/** Who history entries name for work started inside `work` (a request: its API key and request ID). */
export function asActor<T>(actor: Actor, work: () => T): T {
  return scope.run(actor, work)
}

/** The actor of the current unit of work, or `system` (the worker, the scheduler, an embedding service). */
export function currentActor(): Actor {
  return scope.getStore() ?? SYSTEM
}

const SYSTEM: Actor = { apiKeyName: 'system', requestID: null }
