import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addDays, type DateOnly } from '../../core/dates/date-only.js'
import { dueSteps, type TakenStep } from '../../core/dunning/dunning-plan.js'
import { dunningActions, mergeCollections, defaultCollectionPresets, type DunningProfile } from '../../core/presets/collections.js'

const test = suite('dunning plan (properties)')
const OVERDUE = '2026-02-14' as DateOnly
const key = (s: { afterDays?: number; action: string }) => `${s.afterDays} ${s.action}`

/** A profile as a presets file gives it, sorted as the presets are merged (by afterDays, stable). */
const profile = fc
  .array(fc.record({ afterDays: fc.integer({ min: 0, max: 30 }), action: fc.constantFrom(...dunningActions) }), { maxLength: 6 })
  .map((steps): DunningProfile => mergeCollections({ dunningProfiles: { P: { steps } } }, defaultCollectionPresets).dunningProfiles.P)

/** The job on each of `days` (ascending) under the profile of that day: what the invoice records. */
function run(plan: readonly { day: number; profile: DunningProfile }[], taken: TakenStep[] = []): TakenStep[] {
  for (const { day, profile: p } of plan) taken = [...taken, ...dueSteps(p, OVERDUE, addDays(OVERDUE, day), taken)]
  return taken
}

test('over any profiles and edits between runs, each (afterDays, action) is taken at most once, and every one due under the profile of the day is taken, in its order', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ gap: fc.integer({ min: 0, max: 12 }), profile }), { minLength: 1, maxLength: 6 }), (runs) => {
      let day = 0
      let taken: TakenStep[] = []
      for (const r of runs) {
        day += r.gap
        const now = dueSteps(r.profile, OVERDUE, addDays(OVERDUE, day), taken)
        // The steps taken on a day are the profile's, in its order, each with its place in it.
        const places = now.map((s) => s.step)
        assert.equal(places, [...places].sort((a, b) => a - b))
        for (const s of now) assert.equal([r.profile.steps[s.step - 1].afterDays, r.profile.steps[s.step - 1].action], [s.afterDays, s.action])
        taken = [...taken, ...now]
        const keys = taken.map(key)
        assert.is(new Set(keys).size, keys.length, 'no step taken twice')
        for (const s of r.profile.steps) if (s.afterDays <= day) assert.ok(keys.includes(key(s)), `${key(s)} due on day ${day} is taken`)
      }
    }),
    { numRuns: 500 },
  )
})

test('steps recorded without afterDays (before it was kept) under an unchanged profile take nothing again, and the rest as if they had it', () => {
  fc.assert(
    fc.property(profile, fc.integer({ min: 0, max: 35 }), fc.integer({ min: 0, max: 35 }), (p, first, more) => {
      const taken = run([{ day: first, profile: p }])
      const legacy = taken.map(({ afterDays: _, ...s }) => s)
      const later = addDays(OVERDUE, first + more)
      assert.equal(dueSteps(p, OVERDUE, later, legacy), dueSteps(p, OVERDUE, later, taken))
    }),
    { numRuns: 500 },
  )
})

test('Standard then Standard with a suspension inserted at 10 days: the suspension, not a second final notice', () => {
  const standard = mergeCollections({ dunningProfiles: { P: { steps: [{ afterDays: 7, action: 'reminder' }, { afterDays: 14, action: 'finalNotice' }] } } }, defaultCollectionPresets).dunningProfiles.P
  const stricter = mergeCollections({ dunningProfiles: { P: { steps: [{ afterDays: 14, action: 'finalNotice' }, { afterDays: 7, action: 'reminder' }, { afterDays: 10, action: 'suspend' }] } } }, defaultCollectionPresets).dunningProfiles.P
  const taken = run([{ day: 15, profile: standard }])
  assert.equal(dueSteps(stricter, OVERDUE, addDays(OVERDUE, 16), taken), [{ step: 2, afterDays: 10, action: 'suspend', date: addDays(OVERDUE, 16) }])
})

test.run()
