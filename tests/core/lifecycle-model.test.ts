import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DateOnly } from '../../core/dates/date-only.js'
import type { Stamp } from '../../core/dates/stamp.js'
import { BillingError } from '../../core/errors.js'
import { lifecycleActions, type LifecycleAction } from '../../core/lifecycle/actions.js'
import { withChanges } from '../../core/lifecycle/apply-action.js'
import { stateOn, type LifecycleEvent } from '../../core/lifecycle/events.js'
import { ancestorKeys, itemKey, type ItemKey, type Level } from '../../core/lifecycle/levels.js'
import { performAction } from '../../core/lifecycle/perform-action.js'
import { initialState, type LifecycleNode } from '../../core/lifecycle/state.js'
import type { Clock } from '../../core/ports/clock.js'
import { defaultPresets } from '../../core/presets/presets.js'

const test = suite('core/lifecycle model')

let tick = 0
const clock: Clock = {
  // a new stamp per action keeps recorded order visible in the events
  now: () => `2025-06-01T00:00:${String(tick++ % 60).padStart(2, '0')}.000Z` as Stamp,
  today: () => '2025-06-01' as DateOnly,
}
// few dates, so that dateReinstateNumbersFeatures often meets an item's own drop date
const DATES = ['2025-02-01', '2025-03-01']
const FAR = '9999-12-31' as DateOnly

// ---- the tree ----------------------------------------------------------------------------

interface Tree {
  readonly numbers: number
  readonly services: number
  /** Each feature's owner: 0 the customer, then the numbers, then the services. */
  readonly features: readonly number[]
}

const treeArb: fc.Arbitrary<Tree> = fc.record({
  numbers: fc.integer({ min: 0, max: 3 }),
  services: fc.integer({ min: 0, max: 2 }),
  features: fc.array(fc.nat(), { maxLength: 4 }),
})

/** The items of a tree as nodes: customer 1, numbers 10.., services 20.., features 30... */
function build(tree: Tree): LifecycleNode[] {
  const base = { customerID: '1', numberID: null, serviceID: null, state: initialState }
  const nodes: LifecycleNode[] = [{ ...base, level: 'customers', id: '1', customerID: null }]
  for (let i = 0; i < tree.numbers; i++) nodes.push({ ...base, level: 'numbers', id: String(10 + i), number: `0163296${i}` })
  for (let i = 0; i < tree.services; i++) nodes.push({ ...base, level: 'services', id: String(20 + i) })
  tree.features.forEach((owner, i) => {
    const o = owner % (1 + tree.numbers + tree.services)
    const numberID = o >= 1 && o <= tree.numbers ? String(10 + o - 1) : null
    const serviceID = o > tree.numbers ? String(20 + o - 1 - tree.numbers) : null
    nodes.push({ ...base, level: 'features', id: String(30 + i), numberID, serviceID })
  })
  return nodes
}

// ---- the model: deliberately plain --------------------------------------------------------

interface Flags {
  dropped: boolean
  suspended: boolean
  billable: boolean
  finalBill: boolean
  droppedBy: string | null
  dropDate: string | null
}

interface ModelItem {
  readonly key: string
  readonly level: Level
  /** Its number or service, if a feature has one. */
  readonly mid: string | null
  flags: Flags
}

class Model {
  readonly items: ModelItem[]
  /** What each root's last drop took, to check reinstate against. */
  readonly taken = new Map<string, Set<string>>()
  constructor(nodes: readonly LifecycleNode[]) {
    this.items = nodes.map((n) => ({
      key: `${n.level}:${n.id}`,
      level: n.level,
      mid: n.numberID ? `numbers:${n.numberID}` : n.serviceID ? `services:${n.serviceID}` : null,
      flags: { dropped: false, suspended: false, billable: true, finalBill: false, droppedBy: null, dropDate: null },
    }))
  }
  get(key: string): ModelItem {
    return this.items.find((i) => i.key === key)!
  }
  /** Items below `root`: everything for the customer, the attached features for a number or service. */
  below(root: ModelItem): ModelItem[] {
    if (root.level === 'customers') return this.items.filter((i) => i !== root)
    return this.items.filter((i) => i.mid === root.key)
  }
  allowed(action: LifecycleAction, item: ModelItem): boolean {
    const f = item.flags
    const parents = item.level === 'customers' ? [] : ['customers:1', ...(item.mid ? [item.mid] : [])]
    if (action === 'drop') return !f.dropped
    if (action === 'reinstate') return f.dropped && parents.every((p) => !this.get(p).flags.dropped)
    if (action === 'suspend') return !f.dropped && !f.suspended
    if (action === 'unsuspend') return f.suspended
    if (action === 'makeNonBillable') return f.billable
    if (action === 'makeBillable') return !f.billable
    return item.level === 'customers' && !f.dropped && !f.finalBill
  }
  /** Applies an allowed action; returns the keys of the items it changed besides the root. */
  apply(c: Cmd, item: ModelItem): string[] {
    const f = item.flags
    if (c.action === 'suspend') f.suspended = true
    if (c.action === 'unsuspend') f.suspended = false
    if (c.action === 'makeNonBillable') f.billable = false
    if (c.action === 'makeBillable') f.billable = true
    if (c.action === 'finalBill') f.finalBill = true
    if (c.action === 'drop') {
      Object.assign(f, { dropped: true, droppedBy: null, dropDate: c.date })
      const took = this.below(item).filter((i) => !i.flags.dropped)
      for (const i of took) Object.assign(i.flags, { dropped: true, droppedBy: item.key, dropDate: c.date })
      this.taken.set(item.key, new Set(took.map((i) => i.key)))
      return took.map((i) => i.key)
    }
    if (c.action !== 'reinstate') return []
    Object.assign(f, { dropped: false, droppedBy: null, dropDate: c.date, finalBill: false })
    const sameDay = item.level === 'customers' ? c.sameDay : null
    const ownDropThatDay = (i: ModelItem) => sameDay !== null && i.flags.droppedBy === null && i.flags.dropDate === sameDay
    const back: string[] = []
    const bringBack = (i: ModelItem) => {
      Object.assign(i.flags, { dropped: false, droppedBy: null, dropDate: c.date })
      back.push(i.key)
    }
    // first the numbers and services, then the features (their mids are settled by then)
    const mids = this.below(item).filter((i) => i.level !== 'features' && i.flags.dropped)
    const midsBack = mids.filter((i) => i.flags.droppedBy === item.key || ownDropThatDay(i))
    midsBack.forEach(bringBack)
    for (const i of this.below(item).filter((x) => x.level === 'features' && x.flags.dropped)) {
      const midActive = i.mid === null || !this.get(i.mid).flags.dropped
      const byReturning = i.flags.droppedBy === item.key || midsBack.some((m) => m.key === i.flags.droppedBy)
      if (midActive && (byReturning || ownDropThatDay(i))) bringBack(i)
    }
    return back
  }
}

// ---- the real thing: nodes updated through the lifecycle functions -------------------------

interface Real {
  nodes: Map<ItemKey, LifecycleNode>
  events: LifecycleEvent[]
}

interface Cmd {
  readonly target: number
  readonly action: LifecycleAction
  readonly date: string
  readonly sameDay: string | null
  readonly ignoreTraffic: boolean
}

function bodyOf(c: Cmd, level: Level): Record<string, unknown> {
  const param = {
    drop: 'dateDrop',
    reinstate: 'dateReinstate',
    suspend: 'dateSuspend',
    unsuspend: 'dateUnsuspend',
    makeNonBillable: 'dateMakeNonBillable',
    makeBillable: 'dateMakeBillable',
    finalBill: 'dateFinalBill',
  }[c.action]
  const body: Record<string, unknown> = { status: c.action === 'reinstate' ? 'Active' : 'Suspended', [param]: c.date }
  if (c.action === 'reinstate' && level === 'customers' && c.sameDay) body.dateReinstateNumbersFeatures = c.sameDay
  if (c.action === 'drop' && c.ignoreTraffic && (level === 'customers' || level === 'numbers')) {
    body.ignoreTrafficNumberType = 'All Traffic'
  }
  return body
}

class ActionCommand implements fc.Command<Model, Real> {
  constructor(readonly c: Cmd) {}
  check = () => true
  run(model: Model, real: Real): void {
    const list = [...real.nodes.values()]
    const item = list[this.c.target % list.length]
    const key = itemKey(item.level, item.id)
    const mItem = model.get(key)
    // finalBill exists on customers only; elsewhere it is an unknown action, checked in the actions suite
    if (this.c.action === 'finalBill' && item.level !== 'customers') return
    const expectAllowed = model.allowed(this.c.action, mItem)
    const ancestors = ancestorKeys(item.level, item).map((k) => real.nodes.get(k)!)
    const descendants = list.filter((n) => n !== item)
    let outcome
    try {
      outcome = performAction({ action: this.c.action, body: bodyOf(this.c, item.level), item, ancestors, descendants }, defaultPresets, clock)
    } catch (e) {
      assert.ok(e instanceof BillingError && e.code === 'state_not_allowed', `unexpected ${String(e)}`)
      assert.not.ok(expectAllowed, `${this} refused but the model allows it`)
      return
    }
    assert.ok(expectAllowed, `${this} allowed but the model refuses it`)
    for (const ch of outcome.changes) {
      const k = itemKey(ch.level, ch.id)
      const n = real.nodes.get(k)!
      real.nodes.set(k, { ...n, state: withChanges(n.state, ch.changes) })
    }
    real.events.push(...outcome.events)

    const takenBefore = model.taken.get(key)
    const changedInModel = model.apply(this.c, mItem)
    const changedReal = outcome.changes.slice(1).map((ch) => `${ch.level}:${ch.id}`)
    assert.equal([...changedReal].sort(), [...changedInModel].sort(), `${this}: cascade`)
    if (this.c.action === 'reinstate' && takenBefore && !(item.level === 'customers' && this.c.sameDay)) {
      // reinstate brings back exactly what the cascade took
      assert.equal([...changedReal].sort(), [...takenBefore].sort(), `${this}: reinstate vs drop`)
    }
    if (this.c.action === 'drop') assert.equal(outcome.ignoreTraffic.map((e) => e.numberID).sort(), expectedIgnore(this.c, item, changedInModel))
    // a reinstate ends the ignore-traffic entries of exactly the numbers that come back (contract 5.3)
    const back = this.c.action === 'reinstate' ? [key, ...changedInModel].filter((k) => k.startsWith('numbers:')).map((k) => k.slice('numbers:'.length)) : []
    assert.equal([...outcome.ignoreTrafficEnded].sort(), back.sort(), `${this}: ignore-traffic entries ended`)
    compare(model, real, String(this))
  }
  toString = () => `${this.c.action}(#${this.c.target}, ${this.c.date}${this.c.sameDay ? `, sameDay ${this.c.sameDay}` : ''})`
}

function expectedIgnore(c: Cmd, item: LifecycleNode, changed: string[]): string[] {
  if (!c.ignoreTraffic) return []
  if (item.level === 'numbers') return [item.id]
  if (item.level !== 'customers') return []
  return changed.filter((k) => k.startsWith('numbers:')).map((k) => k.slice('numbers:'.length)).sort()
}

function compare(model: Model, real: Real, label: string) {
  for (const m of model.items) {
    const n = real.nodes.get(m.key as ItemKey)!
    const s = n.state
    assert.equal(
      [s.isDropped, s.isSuspended, s.isBillable, s.isFinalBill, s.droppedBy],
      [m.flags.dropped, m.flags.suspended, m.flags.billable, m.flags.finalBill, m.flags.droppedBy],
      `${label}: ${m.key}`,
    )
    // invariant: nothing active under a dropped ancestor
    if (!s.isDropped) {
      for (const a of ancestorKeys(n.level, n)) assert.not.ok(real.nodes.get(a)!.state.isDropped, `${label}: ${m.key} active under ${a}`)
    }
    // the events replay to the flags
    const mine = real.events.filter((e) => e.level === n.level && e.itemId === n.id)
    assert.equal(stateOn(mine, FAR), { suspended: s.isSuspended, billable: s.isBillable, dropped: s.isDropped }, `${label}: events of ${m.key}`)
  }
}

const cmdArb = fc
  .record({
    // the customer (index 0) often: its drops and reinstates are where cascades meet
    target: fc.oneof(fc.constant(0), fc.nat({ max: 20 })),
    // drops and reinstates mostly: the cascades are what the model is for
    action: fc.oneof({ arbitrary: fc.constantFrom('drop', 'reinstate'), weight: 4 }, { arbitrary: fc.constantFrom(...lifecycleActions), weight: 1 }),
    date: fc.constantFrom(...DATES),
    sameDay: fc.option(fc.constantFrom(...DATES), { nil: null, freq: 2 }),
    ignoreTraffic: fc.boolean(),
  })
  .map((c) => new ActionCommand(c))

function agreesWithModel(trees: fc.Arbitrary<Tree>, numRuns: number, maxCommands = 40) {
  fc.assert(
    fc.property(trees, fc.commands([cmdArb], { maxCommands, size: 'max' }), (tree, cmds) => {
      const nodes = build(tree)
      const setup = () => ({
        model: new Model(nodes),
        real: { nodes: new Map(nodes.map((n) => [itemKey(n.level, n.id), n])), events: [] } as Real,
      })
      fc.modelRun(setup, cmds)
    }),
    { numRuns },
  )
}

test('random action sequences on random trees agree with the model after every step', () => {
  agreesWithModel(treeArb, 600)
})

test('the same on small trees, where the rarer cascade paths (a number and its features, same-day drops) are dense', () => {
  // one number, at most one service, features on the number (owner 1) or the service (owner 2)
  const small = fc.record({
    numbers: fc.constant(1),
    services: fc.integer({ min: 0, max: 1 }),
    features: fc.array(fc.constantFrom(1, 2), { minLength: 1, maxLength: 2 }),
  })
  // long sequences: a feature dropped on its own, then its number on another day, then the
  // customer dropped and reinstated with the feature's date takes a while to come about
  agreesWithModel(small, 600, 100)
})

test('drop then reinstate of the same item restores every drop flag', () => {
  fc.assert(
    fc.property(treeArb, fc.commands([cmdArb], { maxCommands: 25 }), fc.nat(), (tree, cmds, pick) => {
      const nodes = build(tree)
      const real: Real = { nodes: new Map(nodes.map((n) => [itemKey(n.level, n.id), n])), events: [] }
      fc.modelRun(() => ({ model: new Model(nodes), real }), cmds)
      const list = [...real.nodes.values()]
      const item = list[pick % list.length]
      const ancestors = ancestorKeys(item.level, item).map((k) => real.nodes.get(k)!)
      if (item.state.isDropped || ancestors.some((a) => a.state.isDropped)) return
      const before = new Map(list.map((n) => [itemKey(n.level, n.id), n.state.isDropped]))
      for (const action of ['drop', 'reinstate'] as const) {
        const current = real.nodes.get(itemKey(item.level, item.id))!
        const body = action === 'drop' ? { status: 'Dropped', dateDrop: '2025-04-01' } : { status: 'Active', dateReinstate: '2025-04-02' }
        const out = performAction(
          { action, body, item: current, ancestors, descendants: [...real.nodes.values()].filter((n) => n !== current) },
          defaultPresets,
          clock,
        )
        for (const ch of out.changes) {
          const k = itemKey(ch.level, ch.id)
          real.nodes.set(k, { ...real.nodes.get(k)!, state: withChanges(real.nodes.get(k)!.state, ch.changes) })
        }
      }
      for (const [k, wasDropped] of before) assert.is(real.nodes.get(k)!.state.isDropped, wasDropped, k)
    }),
    { numRuns: 200 },
  )
})

test.run()
