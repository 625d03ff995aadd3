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
 * core/'s folders form a one-way graph (DEVELOPERS.md). The one exception is a port: a port names
 * the domain types it carries (the ledger's rows, rating's tariffs) and the domain uses the port,
 * so an import of a port that carries only types does not count.
 */
const coreGraph = () => moduleImports('core').filter((i) => !(i.to === 'ports' && i.typeOnly))

test('core/ folders import each other one way: no import loop', () => {
  const imports = coreGraph()
  const loops = cyclesOf(imports).map((cycle) => ({
    cycle,
    imports: imports.filter((i) => cycle.includes(i.from) && cycle.includes(i.to)).map((i) => `${i.file} -> ${i.target}`),
  }))
  assert.equal(loops, [])
})

test('the loop check finds a loop, and lets type-only imports of ports through', () => {
  assert.equal(cyclesOf([{ from: 'billing', to: 'rating' }, { from: 'rating', to: 'billing' }, { from: 'rating', to: 'dates' }]), [['billing', 'rating']])
  assert.equal(cyclesOf([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }]), [['a', 'b', 'c']])
  assert.equal(cyclesOf([{ from: 'billing', to: 'dates' }, { from: 'rating', to: 'dates' }]), [])
  const imports = coreGraph()
  assert.ok(imports.some((i) => i.from === 'ports' && i.to === 'billing'), 'ports carry billing types')
  assert.ok(imports.every((i) => !(i.to === 'ports' && i.typeOnly)), 'type-only imports of ports are left out')
  assert.ok(imports.some((i) => i.from === 'billing' && i.to === 'lifecycle' && !i.typeOnly), 'value imports count')
})

test.run()
