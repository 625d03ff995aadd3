import type { H3Event } from 'h3'
import type { Field } from '../../core/fields/field.js'
import type { ResourceName } from '../../core/fields/resource.js'
import type { ApiKey } from '../../core/ports/api-key-repository.js'
import type { PlatformContext } from '../../core/platform.js'

export const BASE_PATH = '/backend/api/v1'

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** Extra access a route needs beyond a valid key (contract 3). */
export type Access = 'expertLevel5' | 'expertLevel3' | 'dataProtectionDownload'

export interface RequestContext {
  readonly platform: PlatformContext
  readonly key: ApiKey | null
  readonly params: Readonly<Record<string, string>>
}

/** What a route is, for the OpenAPI document and the route-enumerating tests. */
export interface RouteDoc {
  readonly summary: string
  readonly resource?: ResourceName
  /** The kind of operation, which decides body and response schemas. */
  readonly kind: 'list' | 'get' | 'create' | 'update' | 'delete' | 'action' | 'other'
  /** Accepted query parameters, for lists. */
  readonly query?: readonly string[]
  /** Error codes the route can answer besides the generic ones. */
  readonly errors?: readonly number[]
  /** The actions an action route offers, with their body parameters where described. */
  readonly actions?: readonly ActionDoc[]
  /** Media type of the answer when it is not JSON (the docs page and its assets). */
  readonly contentType?: string
  /** JSON Schema of the request body when it is not the resource's create or update schema (a credit note's request). */
  readonly body?: Readonly<Record<string, unknown>>
  /** Media types the route also answers with, chosen by `Accept`, each with what it is. */
  readonly alternatives?: Readonly<Record<string, string>>
}

/** One named action of an action route, for the OpenAPI document. */
export interface ActionDoc {
  readonly name: string
  readonly summary: string
  /** Body parameters, described like fields (`required` = must be given); absent when not described. */
  readonly params?: readonly Field[]
  /** JSON Schema of the action's own answer, when it is not the updated resource. */
  readonly result?: Readonly<Record<string, unknown>>
}

/** One entry of the route table: the single source for routing, access, docs and tests. */
export interface Route {
  readonly method: Method
  /** Path below the base path, with `:name` parameters; the full path when `absolute`. */
  readonly path: string
  readonly absolute?: boolean
  readonly public?: boolean
  readonly access?: Access
  /**
   * The body is read as it arrives, of any size (a usage file): an Idempotency-Key's fingerprint
   * then takes the body's digest as it streams, instead of the body read first (at most 1 MiB).
   */
  readonly streamsBody?: boolean
  readonly doc: RouteDoc
  readonly handler: (event: H3Event, ctx: RequestContext) => Promise<Response>
}

export const fullPath = (route: Route): string => (route.absolute ? route.path : `${BASE_PATH}${route.path}`)
