import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** A small independent model of the flags: what the database must agree with after every step. */
type Node = { key: string; path: string; parent: string | null; grand: string | null }
type Flags = { dropped: boolean; suspended: boolean; billable: boolean; droppedBy: string | null }

const actions = ['drop', 'reinstate', 'suspend', 'unsuspend', 'makeNonBillable', 'makeBillable'] as const
type Action = (typeof actions)[number]

function modelStep(nodes: Node[], flags: Map<string, Flags>, target: Node, action: Action): boolean {
  const f = flags.get(target.key)!
  const ancestors = [target.parent, target.grand].filter((k): k is string => k !== null)
  const descendants = nodes.filter((n) => n.parent === target.key || n.grand === target.key)
  switch (action) {
    case 'drop':
      if (f.dropped) return false
      flags.set(target.key, { ...f, dropped: true, droppedBy: null })
      for (const d of descendants) {
        const df = flags.get(d.key)!
        if (!df.dropped) flags.set(d.key, { ...df, dropped: true, droppedBy: target.key })
      }
      return true
    case 'reinstate':
      if (!f.dropped || ancestors.some((a) => flags.get(a)!.dropped)) return false
      flags.set(target.key, { ...f, dropped: false, droppedBy: null })
      for (const d of descendants) {
        const df = flags.get(d.key)!
        if (df.dropped && df.droppedBy === target.key) flags.set(d.key, { ...df, dropped: false, droppedBy: null })
      }
      return true
    case 'suspend':
      if (f.dropped || f.suspended) return false
      flags.set(target.key, { ...f, suspended: true })
      return true
    case 'unsuspend':
      if (!f.suspended) return false
      flags.set(target.key, { ...f, suspended: false })
      return true
    case 'makeNonBillable':
      if (!f.billable) return false
      flags.set(target.key, { ...f, billable: false })
      return true
    case 'makeBillable':
      if (f.billable) return false
      flags.set(target.key, { ...f, billable: true })
      return true
  }
}

const body = (action: Action) =>
  action === 'drop'
    ? { status: 'Dropped', dateDrop: '2026-05-01' }
    : action === 'reinstate'
      ? { status: 'Active', dateReinstate: '2026-05-02' }
      : { status: 'Active' }

async function buildTree(h: Harness, tag: number): Promise<Node[]> {
  const post = async (path: string) => (await h.request('POST', path, {})).body.id as string
  const c = await post('/customers')
  const n = await post(`/customers/${c}/numbers`)
  const s = await post(`/customers/${c}/services`)
  const fN = await post(`/numbers/${n}/features`)
  const fS = await post(`/services/${s}/features`)
  const fC = await post(`/customers/${c}/features`)
  void tag
  return [
    { key: `c${c}`, path: `/customers/${c}`, parent: null, grand: null },
    { key: `n${n}`, path: `/numbers/${n}`, parent: `c${c}`, grand: null },
    { key: `s${s}`, path: `/services/${s}`, parent: `c${c}`, grand: null },
    { key: `f${fN}`, path: `/features/${fN}`, parent: `n${n}`, grand: `c${c}` },
    { key: `f${fS}`, path: `/features/${fS}`, parent: `s${s}`, grand: `c${c}` },
    { key: `f${fC}`, path: `/features/${fC}`, parent: `c${c}`, grand: null },
  ]
}

/** No item may be active under a dropped ancestor. */
async function assertNoOrphans(h: Harness, nodes: Node[]) {
  const dropped = new Map<string, boolean>()
  for (const n of nodes) dropped.set(n.key, (await h.request('GET', n.path)).body.isDropped)
  for (const n of nodes) {
    for (const a of [n.parent, n.grand]) {
      if (a && dropped.get(a)) assert.ok(dropped.get(n.key), `${n.key} is active under dropped ${a}`)
    }
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`lifecycle on the database [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('random action sequences agree with a simple model after every step (flags, refusals, cascades)', async ({ h }) => {
    let tag = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: 5 }), fc.constantFrom(...actions)), { minLength: 1, maxLength: 14 }),
        async (steps) => {
          const nodes = await buildTree(h, tag++)
          const flags = new Map(nodes.map((n) => [n.key, { dropped: false, suspended: false, billable: true, droppedBy: null } as Flags]))
          for (const [index, action] of steps) {
            const node = nodes[index]
            const allowed = modelStep(nodes, flags, node, action)
            const r = await h.request('POST', `${node.path}?action=${action}`, body(action))
            assert.is(r.status, allowed ? 200 : 400, `${action} on ${node.key}: ${JSON.stringify(r.body)}`)
            if (!allowed) assert.is(r.body.error_code, 400502)
            for (const n of nodes) {
              const got = (await h.request('GET', n.path)).body
              const want = flags.get(n.key)!
              assert.equal(
                [got.isDropped, got.isSuspended, got.isBillable],
                [want.dropped, want.suspended, want.billable],
                `${n.key} after ${action} on ${node.key}`,
              )
            }
          }
        },
      ),
      { numRuns: target === 'postgres' ? 12 : 20 },
    )
  })

  test('many simultaneous actions on one customer tree never leave a child active under a dropped parent', async ({ h }) => {
    for (let round = 0; round < 4; round++) {
      const nodes = await buildTree(h, 100 + round)
      const requests = Array.from({ length: 30 }, (_, i) => {
        const node = nodes[(i * 7 + round) % nodes.length]
        const action: Action = i % 3 === 0 ? 'reinstate' : i % 3 === 1 ? 'drop' : 'suspend'
        return h.request('POST', `${node.path}?action=${action}`, body(action))
      })
      const responses = await Promise.all(requests)
      for (const r of responses) assert.ok(r.status === 200 || r.body.error_code === 400502, JSON.stringify(r.body))
      await assertNoOrphans(h, nodes)
    }
  })

  test.run()
}
