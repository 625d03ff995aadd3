import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Test } from 'uvu'
import * as assert from 'uvu/assert'

/*
 * Type fixtures (tests/types/fixtures): files compiled and never run, each `@ts-expect-error
 * TSnnnn` marking a mistake the types must refuse, with the error tsc gives for it.
 */

const run = promisify(execFile)

/** tsc over one file with the project's settings: its exit code and what it printed. */
async function compile(project: string): Promise<{ code: number; out: string }> {
  try {
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { maxBuffer: 1 << 24 })
    return { code: 0, out: '' }
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string }
    return { code: err.code ?? 1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` }
  }
}

/** The marks of a fixture: the line each names (the one after it, 1-based) and the error code it expects there. */
function marksOf(source: readonly string[]): { line: number; code: string }[] {
  return source.flatMap((text, i) => {
    const mark = /^\s*\/\/ @ts-expect-error\b(?:\s+(TS\d+))?/.exec(text)
    return mark ? [{ line: i + 2, code: mark[1] ?? '' }] : []
  })
}

/**
 * One tsc run over the fixture and, beside it (its imports resolve alike), a copy with its marks
 * blanked: the package is type-checked once through them, not once for each. Each error's file,
 * line and code, and what tsc printed.
 */
async function compileWithUnmarked(fixture: string): Promise<{ code: number; errors: { file: string; line: number; code: string }[]; out: string }> {
  const source = readFileSync(fixture, 'utf8').split('\n')
  const dir = mkdtempSync(join(resolve('tests/types/fixtures'), 'unmarked-'))
  const name = dir.split('/').at(-1)!
  try {
    writeFileSync(`${dir}.ts`, source.map((l) => (l.trim().startsWith('// @ts-expect-error') ? '' : l)).join('\n'))
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true }, include: [`../${name}.ts`, `../${basename(fixture)}`] }))
    const { code, out } = await compile(join(dir, 'tsconfig.json'))
    const errors = [...out.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+)/gm)].map((m) => ({ file: m[1].includes(name) ? 'unmarked' : m[1], line: Number(m[2]), code: m[3] }))
    return { code, errors, out }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    rmSync(`${dir}.ts`, { force: true })
  }
}

/**
 * The tests of a fixture: it compiles with its marks (each mark is a mistake tsc refuses, or tsc
 * reports the mark unused), each mark names its error code, and without the marks tsc reports
 * exactly the marked codes on the marked lines.
 */
export function fixtureTests(test: Test, what: string, fixture: string, project: string, leastMarks: number): void {
  let compiled: ReturnType<typeof compileWithUnmarked> | undefined
  const both = () => (compiled ??= compileWithUnmarked(fixture))

  test(`${what} compile, and every mistake in the fixture is a compile error`, async () => {
    assert.ok(readFileSync(project, 'utf8').includes(basename(fixture)), `${project} is the fixture's project`)
    const { errors, out } = await both()
    // An @ts-expect-error that compiles after all would be "Unused '@ts-expect-error' directive" here.
    assert.equal(errors.filter((e) => e.file !== 'unmarked'), [], `tsc reports nothing in the fixture itself:\n${out}`)
    const unplaced = out.split('\n').filter((l) => l.trim() && !/^\s/.test(l) && !/^.+?\(\d+,\d+\): error TS\d+/.test(l))
    assert.equal(unplaced, [], 'tsc printed nothing but errors in the two files')
  })

  test('every mark in the fixture names the error code it expects', () => {
    const marks = marksOf(readFileSync(fixture, 'utf8').split('\n'))
    assert.ok(marks.length >= leastMarks, `${marks.length} expected errors in the fixture`)
    assert.equal(marks.filter((m) => !m.code), [], 'each @ts-expect-error is followed by its TSnnnn code')
  })

  test('without the @ts-expect-error marks, tsc reports each mistake on its own line, with the code marked', async () => {
    const marks = marksOf(readFileSync(fixture, 'utf8').split('\n'))
    const { code, errors, out } = await both()
    assert.is.not(code, 0)
    // One error per marked line, of the marked code: a mistake refused for another reason
    // (a missing argument where a wrong name was meant) would show here.
    const found = errors.filter((e) => e.file === 'unmarked').map(({ line, code }) => ({ line, code }))
    assert.equal(found, marks, `errors on exactly the marked lines, with the marked codes:\n${out}`)
  })
}
