import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { compile, compileUnmarked, marksOf } from '../support/type-fixtures.js'

const FIXTURE = resolve('tests/types/fixtures/database-usage.ts')

test('typed queries compile, and every mistake in the fixture is a compile error', async () => {
  const { code, out } = await compile('tests/types/tsconfig.database.json')
  assert.is(out, '', 'tsc printed nothing: an @ts-expect-error that compiles after all would be "Unused \'@ts-expect-error\' directive"')
  assert.is(code, 0)
})

test('every mark in the fixture names the error code it expects', () => {
  const marks = marksOf(readFileSync(FIXTURE, 'utf8').split('\n'))
  assert.ok(marks.length >= 10, `${marks.length} expected errors in the fixture`)
  assert.equal(marks.filter((m) => !m.code), [], 'each @ts-expect-error is followed by its TSnnnn code')
})

test('without the @ts-expect-error marks, tsc reports each mistake on its own line, with the code marked', async () => {
  const marks = marksOf(readFileSync(FIXTURE, 'utf8').split('\n'))
  const { code, found, out } = await compileUnmarked(FIXTURE)
  assert.is.not(code, 0)
  assert.equal(found, marks, `errors on exactly the marked lines, with the marked codes:\n${out}`)
})

test.run()
