import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { generatedFunction } from '../../core/codegen/generated-function.js'
import { childEntry } from '../support/child-entry.js'

const run = promisify(execFile)
const test = suite('core/codegen: generated functions and their fallbacks')

test('a generated function is named for stack traces and sees its scope', () => {
  const add = generatedFunction<(a: number) => number>({ name: 'addTen', params: ['a'], body: 'return a + ten', scope: { ten: 10 }, fallback: (a) => a + 10 })
  assert.is(add.name, 'addTen')
  assert.is(add(5), 15)
  const thrower = generatedFunction<() => never>({ name: 'failsHere', params: [], body: 'throw new Error("x")', fallback: () => { throw new Error('x') } })
  try {
    thrower()
    assert.unreachable()
  } catch (e) {
    assert.match(String((e as Error).stack), /failsHere/)
  }
})

test('a signature that is not made of identifiers is refused before anything is compiled', () => {
  assert.throws(() => generatedFunction({ name: 'x() {}; evil', params: [], body: '', fallback: () => 0 }), /not a valid signature/)
  assert.throws(() => generatedFunction({ name: 'ok', params: ['a, b'], body: '', fallback: () => 0 }), /not a valid signature/)
})

test('a fault in generated source is thrown, not hidden behind the fallback', () => {
  assert.throws(() => generatedFunction({ name: 'broken', params: [], body: 'return {', fallback: () => 0 }), SyntaxError)
})

test('under --disallow-code-generation-from-strings every generator falls back and answers the same', async () => {
  const answers = async (flags: string[]) => {
    const { stdout } = await run(process.execPath, [...flags, ...childEntry('tests/support/codegen-child.ts')], { timeout: 60_000 })
    return JSON.parse(stdout.split('\n').find((l) => l.startsWith('ANSWERS '))!.slice('ANSWERS '.length)) as Record<string, unknown>
  }
  const [generated, fallback] = await Promise.all([answers([]), answers(['--disallow-code-generation-from-strings'])])
  assert.is(generated.generated, true)
  assert.is(fallback.generated, false)
  assert.equal((generated.outcome as { ledgerWrites: number }).ledgerWrites, 3, 'the run wrote its rows (a charge, its discount, an instalment)')
  assert.equal({ ...fallback, generated: true }, generated)
})

test.run()
