import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

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

test.run()
