import { AsyncLocalStorage } from 'node:async_hooks'
import type { Actor } from '../../core/ports/change-log.js'

const scope = new AsyncLocalStorage<Actor>()

/** Units of work inside `asActor` not yet finished. */
let active = 0

/**
 * Who history entries name for work started inside `work` (a request that writes: its API key
 * and request ID). Node 20's AsyncLocalStorage, once entered, hooks every promise the process
 * makes from then on, whoever makes it; so the scope is disabled again whenever no unit of work
 * is inside it, and requests that write nothing (GET) pay for it only while a write is running.
 */
export function asActor<T>(actor: Actor, work: () => T): T {
  active++
  let result: T
  try {
    result = scope.run(actor, work)
  } catch (e) {
    leave()
    throw e
  }
  if (result instanceof Promise) return result.finally(leave) as T
  leave()
  return result
}

function leave(): void {
  if (--active === 0) scope.disable()
}

/** The actor of the current unit of work, or `system` (the worker, the scheduler, an embedding service). */
export function currentActor(): Actor {
  return scope.getStore() ?? SYSTEM
}

const SYSTEM: Actor = { apiKeyName: 'system', requestID: null }
