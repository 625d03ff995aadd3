import { itemActions } from '../../core/actions/action-table.js'
import { runItemAction } from '../../core/actions/item-actions.js'
import { objectBody } from '../../core/input/object-body.js'
import type { Item } from '../../core/fields/item.js'
import type { PlatformContext } from '../../core/platform.js'
import { parentOwner, parentScope } from '../../core/resources/scopes.js'
import { updateTariff } from '../../core/resources/tariffs.js'
import { tariffKinds, type TariffKind } from '../../core/tariffs/increase-scopes.js'
import { create, readPage, resourceApi, resourceOf, toPage, type Body, type ListParams, type Page, type ResourceApi } from './resource-api.js'

/** Call tariffs or fixed fee tariffs: names unique, a rename carried to every user, deletion refused while in use. */
export interface TariffsApi extends ResourceApi {
  /** Creates a tariff. */
  create(body: Body): Promise<Item>
  /**
   * Raises the prices of the tariff and its rates in place (`increasePercent`, `increaseScope`,
   * optional `increaseEffectiveDate`); over HTTP this needs expert level 5. Not idempotent.
   */
  applyIncrease(id: string, body: Body): Promise<Item>
  /** A copy of the tariff and its rates with prices raised; the same request again answers the existing copy. */
  createIncreaseVersion(id: string, body: Body): Promise<Item>
}

/** The rates of one kind of tariff. */
export interface TariffDetailsApi extends ResourceApi {
  /** Adds a rate to the tariff (`not_found` when the tariff does not exist). */
  create(tariffID: string, body: Body): Promise<Item>
  /** One page of the tariff's rates. */
  listOf(tariffID: string, params?: ListParams): Promise<Page>
}

export function tariffsApi(ctx: PlatformContext, kind: TariffKind): TariffsApi {
  const increase = (action: 'applyIncrease' | 'createIncreaseVersion') => (id: string, body: Body) =>
    runItemAction(ctx, resourceOf(ctx, kind), { [action]: itemActions[kind][action] }, id, action, () => objectBody(body)) as Promise<Item>
  return {
    ...resourceApi(ctx, kind),
    create: (body) => create(ctx, kind, body),
    update: (id, body) => updateTariff(ctx, resourceOf(ctx, kind), id, body),
    applyIncrease: increase('applyIncrease'),
    createIncreaseVersion: increase('createIncreaseVersion'),
  }
}

export function tariffDetailsApi(ctx: PlatformContext, kind: TariffKind): TariffDetailsApi {
  const { details, ownerField } = tariffKinds[kind]
  return {
    ...resourceApi(ctx, details),
    create: (tariffID, body) => create(ctx, details, body, () => parentOwner(ctx.store, kind, tariffID, ownerField)),
    listOf: async (tariffID, params) => toPage(await readPage(ctx, details, params, { scope: () => parentScope(ctx.store, kind, tariffID, ownerField) })),
  }
}
