import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cyclesOf, moduleImports } from './support/import-graph.js'

const test = suite('architecture')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** Frameworks and node I/O that the pure core must not reach (DEVELOPERS.md). */
const forbidden = /from ['"](h3|h3\/.*|kysely|better-sqlite3|pg|inversify|croner|reflect-metadata|node:.*|fs|fs\/.*|http|https|net|child_process|crypto|os|path)['"]/

test('core/ imports no framework and no node module', () => {
  const offenders = files('core').filter((f) => forbidden.test(readFileSync(f, 'utf8')))
  assert.equal(offenders, [])
})

test('core/ never reads the wall clock (the Clock port does)', () => {
  const offenders = files('core').filter((f) => /new Date\(\)|Date\.now\(\)/.test(readFileSync(f, 'utf8')))
  assert.equal(offenders, [])
})

test('core/ imports nothing outside core/', () => {
  const offenders = files('core').filter((f) => /from ['"](\.\.\/)+(adapters|apps)\//.test(readFileSync(f, 'utf8')))
  assert.equal(offenders, [])
})

test('inversify appears only in apps/', () => {
  const offenders = [...files('core'), ...files('adapters')].filter((f) => /from ['"]inversify['"]/.test(readFileSync(f, 'utf8')))
  assert.equal(offenders, [])
})

test('the check itself catches a forbidden import', () => {
  assert.ok(forbidden.test(`import { H3 } from 'h3'`))
  assert.ok(forbidden.test(`import x from "node:fs"`))
  assert.not.ok(forbidden.test(`import * as v from 'valibot'`))
})

/**
 * core/'s folders form a one-way graph (DEVELOPERS.md), and a port owns the types it speaks: the
 * receivables', credit control's, the ledger's, a billing run's and carrier data's shapes live in
 * core/ports, and the domain imports them from there. Two ports still name the types of the
 * domain they serve, because those types are that domain's vocabulary, derived from its own
 * lists (rating's tariff and number fields, lifecycle's levels and actions): moving them would
 * move the vocabulary into the port. Those type-only imports, and only those, do not count.
 */
const vocabulary: Readonly<Record<string, readonly string[]>> = { 'ports/rating-data.ts': ['rating'], 'ports/lifecycle-log.ts': ['lifecycle'] }
const coreGraph = () => moduleImports('core').filter((i) => !(i.typeOnly && vocabulary[i.file]?.includes(i.to)))

test('core/ folders import each other one way: no import loop', () => {
  const imports = coreGraph()
  const loops = cyclesOf(imports).map((cycle) => ({
    cycle,
    imports: imports.filter((i) => cycle.includes(i.from) && cycle.includes(i.to)).map((i) => `${i.file} -> ${i.target}`),
  }))
  assert.equal(loops, [])
})

test('the loop check finds a loop, and lets through only the two ports\' vocabulary imports', () => {
  assert.equal(cyclesOf([{ from: 'billing', to: 'rating' }, { from: 'rating', to: 'billing' }, { from: 'rating', to: 'dates' }]), [['billing', 'rating']])
  assert.equal(cyclesOf([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }]), [['a', 'b', 'c']])
  assert.equal(cyclesOf([{ from: 'billing', to: 'dates' }, { from: 'rating', to: 'dates' }]), [])
  const imports = coreGraph()
  assert.ok(imports.some((i) => i.from === 'billing' && i.to === 'ports' && i.typeOnly), 'type-only imports count')
  assert.ok(imports.every((i) => !(i.from === 'ports' && (i.to === 'rating' || i.to === 'lifecycle'))), "the two ports' vocabulary imports are left out")
  assert.ok(imports.some((i) => i.from === 'billing' && i.to === 'lifecycle' && !i.typeOnly), 'value imports count')
})

test.run()
