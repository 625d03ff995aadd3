import type { Entity, InputOf, PatchOf, ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { parentOwner, parentScope } from '../../core/resources/scopes.js'
import { historiedCollections } from '../../core/history/record-change.js'
import { BillingError, quoted } from '../../core/errors.js'
import { deleteItem } from '../../core/resources/removals.js'
import { createWebhook, updateWebhook } from '../../core/webhooks/webhooks.js'
import { readApi, readPage, resourceOf, shown, shownPage, toPage, visibleItem, type ListParams, type Page, type ReadApi } from './resource-api.js'

/** A collection whose items each have a history (`GET /<collection>/<id>/history`). */
export type HistoriedCollection = (typeof historiedCollections)[number]

/** History entries (contract 12): filters `resource`, `resourceID`, `customerID`, `since`. */
export interface HistoryApi extends ReadApi<'history'> {
  /**
   * One page of the history of one item of a collection, as `GET /<collection>/<id>/history`
   * answers it: `not_found` when the item does not exist (a deleted item's history stays in
   * `list({ resource, resourceID })`), and when the collection keeps no history.
   */
  listOf(collection: HistoriedCollection, id: string, params?: ListParams<'history'>): Promise<Page<ShownOf<'history'>>>
}

/** An event as `subscribe` hands it over: as `GET /events/<id>` answers it, `data` the resource's JSON. */
export type BillingEvent = Entity<'events'>

export interface SubscribeOptions {
  /** Start after this event ID (default: the newest now, so only what happens next). */
  readonly after?: string
  /** How often to look for new events when none is waiting (default 100 ms). */
  readonly pollMs?: number
  /** Called when the handler throws; the event is handed over again after `pollMs` (at least once). */
  readonly onError?: (error: unknown, event: BillingEvent) => void
}

/** The ordered events feed, and subscription in process. */
export interface EventsApi extends ReadApi<'events'> {
  /**
   * Calls `handler` with every event committed after the subscription starts, one at a time, in
   * event order, by any process sharing the database; a handler that throws gets the same event
   * again (at least once). Answers a function that stops it.
   */
  subscribe(handler: (event: BillingEvent) => unknown, options?: SubscribeOptions): () => void
}

/** Webhooks (contract 12). */
export interface WebhooksApi extends ReadApi<'webhooks'> {
  /** Creates a webhook; `secret` (to verify signatures) is given here only. */
  create(body: InputOf<'webhooks'>): Promise<{ webhook: ShownOf<'webhooks'>; secret: string }>
  /** Partial merge; `active: true` again resumes its deliveries in order. */
  update(id: string, body: PatchOf<'webhooks'>): Promise<ShownOf<'webhooks'>>
  delete(id: string): Promise<ShownOf<'webhooks'>>
  /** One page of a webhook's deliveries, each with its attempts. */
  deliveries(id: string, params?: ListParams<'webhookDeliveries'>): Promise<Page<ShownOf<'webhookDeliveries'>>>
}

export function historyApi(ctx: PlatformContext): HistoryApi {
  return {
    ...readApi(ctx, 'history'),
    listOf: async (collection, id, params) => {
      // HTTP has no route for another collection's history: 404 there, not_found here.
      if (!(historiedCollections as readonly string[]).includes(collection)) {
        throw new BillingError('not_found', `No collection ${quoted(String(collection))} keeps a history of its items`, `Give one of ${historiedCollections.join(', ')}.`)
      }
      return shownPage('history',
        toPage(
          await readPage(ctx, 'history', params, {
            scope: async () => {
              await parentOwner(ctx.store, collection, id, 'resourceID')
              return [
                { op: 'eq', column: 'resource', value: collection },
                { op: 'eq', column: 'resourceID', value: id },
              ]
            },
          }),
        ),
      )
    },
  }
}

/** Stops every subscription (the platform's close). */
export type StopAll = () => void

export function eventsApi(ctx: PlatformContext): EventsApi & { stopAll: StopAll } {
  const running = new Set<() => void>()
  return {
    ...readApi(ctx, 'events'),
    subscribe(handler, options = {}) {
      const pollMs = options.pollMs ?? 100
      let stopped = false
      let timer: NodeJS.Timeout | undefined
      const stop = () => {
        stopped = true
        clearTimeout(timer)
        running.delete(stop)
      }
      running.add(stop)
      const loop = async (after: string) => {
        if (stopped) return
        let cursor = after
        try {
          const events = (await ctx.store.repository('events').list({ where: [], idAfter: cursor, limit: 500 })) as BillingEvent[]
          for (const event of events) {
            if (stopped) return
            try {
              await handler(event)
            } catch (error) {
              options.onError?.(error, event)
              break
            }
            cursor = event.id
          }
          if (events.length === 500 && cursor === events.at(-1)!.id) return void setImmediate(() => loop(cursor))
        } catch {
          // The database did not answer: look again after the pause, from the same event.
        }
        if (!stopped) timer = setTimeout(() => loop(cursor), pollMs)
      }
      void (options.after !== undefined ? Promise.resolve(options.after) : ctx.store.webhookOutbox.lastEventID()).then(loop)
      return stop
    },
    stopAll: () => [...running].forEach((stop) => stop()),
  }
}

export function webhooksApi(ctx: PlatformContext): WebhooksApi {
  const hooks = resourceOf(ctx, 'webhooks') as Parameters<typeof createWebhook>[1]
  return {
    ...readApi(ctx, 'webhooks'),
    create: async (body) => {
      // The secret is answered once, beside the webhook, never as one of its fields.
      const { webhook, secret } = await createWebhook(ctx, hooks, body)
      return { webhook: visibleItem('webhooks', webhook) as unknown as ShownOf<'webhooks'>, secret }
    },
    update: (id, body) => shown('webhooks', updateWebhook(ctx, hooks, id, body)),
    delete: (id) => shown('webhooks', deleteItem(ctx, 'webhooks', id)),
    deliveries: async (id, params) =>
      shownPage('webhookDeliveries', toPage(await readPage(ctx, 'webhookDeliveries', params, { scope: () => parentScope(ctx.store, 'webhooks', id, 'webhookID') }))),
  }
}
