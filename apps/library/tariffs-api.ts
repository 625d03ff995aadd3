import type { Item } from '../../core/fields/item.js'
import { itemActions } from '../../core/actions/action-table.js'
import { runItemAction } from '../../core/actions/item-actions.js'
import { objectBody } from '../../core/input/object-body.js'
import type { ActionBody } from '../../core/actions/action-table.js'
import type { InputOf, ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { parentOwner, parentScope } from '../../core/resources/scopes.js'
import { updateTariff } from '../../core/resources/tariffs.js'
import { tariffKinds, type TariffKind } from '../../core/tariffs/increase-scopes.js'
import { create, readPage, resourceApi, resourceOf, shown, shownPage, toPage, type ListParams, type Page, type ResourceApi } from './resource-api.js'

/** Call tariffs or fixed fee tariffs: names unique, a rename carried to every user, deletion refused while in use. */
export interface TariffsApi<K extends TariffKind = TariffKind> extends ResourceApi<K> {
  /** Creates a tariff. */
  create(body: InputOf<K>): Promise<ShownOf<K>>
  /**
   * Raises the prices of the tariff and its rates in place (`increasePercent`, `increaseScope`,
   * optional `increaseEffectiveDate`); over HTTP this needs expert level 5. Not idempotent.
   */
  applyIncrease(id: string, body: ActionBody<K, 'applyIncrease'>): Promise<ShownOf<K>>
  /** A copy of the tariff and its rates with prices raised; the same request again answers the existing copy. */
  createIncreaseVersion(id: string, body: ActionBody<K, 'createIncreaseVersion'>): Promise<ShownOf<K>>
}

/** The rates of one kind of tariff (`tariffDetails` or `fixedFeeTariffDetails`). */
export interface TariffDetailsApi<D extends TariffDetails = TariffDetails> extends ResourceApi<D> {
  /** Adds a rate to the tariff (`not_found` when the tariff does not exist). */
  create(tariffID: string, body: InputOf<D>): Promise<ShownOf<D>>
  /** One page of the tariff's rates. */
  listOf(tariffID: string, params?: ListParams<D>): Promise<Page<ShownOf<D>>>
}

type TariffDetails = (typeof tariffKinds)[TariffKind]['details']

export function tariffsApi<K extends TariffKind>(ctx: PlatformContext, kind: K): TariffsApi<K> {
  const increase = (action: 'applyIncrease' | 'createIncreaseVersion') => (id: string, body: object) =>
    shown(kind, runItemAction(ctx, resourceOf(ctx, kind), { [action]: itemActions[kind][action] }, id, action, () => objectBody(body)) as Promise<Item>)
  return {
    ...resourceApi(ctx, kind),
    create: (body) => create(ctx, kind, body),
    update: (id, body) => shown(kind, updateTariff(ctx, resourceOf(ctx, kind), id, body)),
    applyIncrease: increase('applyIncrease'),
    createIncreaseVersion: increase('createIncreaseVersion'),
  }
}

export function tariffDetailsApi<K extends TariffKind>(ctx: PlatformContext, kind: K): TariffDetailsApi<(typeof tariffKinds)[K]['details']> {
  type D = (typeof tariffKinds)[K]['details']
  const { details, ownerField } = tariffKinds[kind] as { details: D; ownerField: string }
  return {
    ...resourceApi(ctx, details),
    create: (tariffID, body) => create(ctx, details, body, () => parentOwner(ctx.store, kind, tariffID, ownerField)),
    listOf: async (tariffID, params) => shownPage(details, toPage(await readPage(ctx, details, params, { scope: () => parentScope(ctx.store, kind, tariffID, ownerField) }))),
  }
}
