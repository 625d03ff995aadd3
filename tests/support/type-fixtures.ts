import { readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { Test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Source, TypeCheck } from './type-check.js'

/*
 * Type fixtures (tests/types/fixtures): files compiled and never run, each `@ts-expect-error
 * TSnnnn` marking a mistake the types must refuse, with the error tsc gives for it.
 */

/** The marks of a fixture: the line each names (the one after it, 1-based) and the error code it expects there. */
function marksOf(source: readonly string[]): { line: number; code: string }[] {
  return source.flatMap((text, i) => {
    const mark = /^\s*\/\/ @ts-expect-error\b(?:\s+(TS\d+))?/.exec(text)
    return mark ? [{ line: i + 2, code: mark[1] ?? '' }] : []
  })
}

export interface Fixture extends Source {
  readonly text: string
  /** A copy with its marks blanked, beside the fixture so that its imports resolve alike. */
  readonly unmarked: Source
}

/**
 * A fixture copied to the same path under `into` (a built package's `dist`, where its relative
 * imports of the sources find their declarations), and its unmarked copy: both written for the
 * shared tsc run (./type-check.ts) and removed after it.
 */
export function fixture(file: string, into: string): Fixture {
  const text = readFileSync(resolve(file), 'utf8')
  const path = join(into, file)
  const unmarked = text
    .split('\n')
    .map((l) => (l.trim().startsWith('// @ts-expect-error') ? '' : l))
    .join('\n')
  return { path, text, unmarked: { path: join(dirname(path), `unmarked-${basename(path)}`), text: unmarked } }
}

/**
 * The tests of a fixture, from the tsc run over it and its unmarked copy (with other files):
 * it compiles with its marks (each mark is a mistake tsc refuses, or tsc reports the mark
 * unused), each mark names its error code, and without the marks tsc reports exactly the marked
 * codes on the marked lines.
 */
export function fixtureTests(test: Test, what: string, fixture: Fixture, checked: () => Promise<TypeCheck>, leastMarks: number): void {
  test(`${what} compile, and every mistake in the fixture is a compile error`, async () => {
    const { errors, elsewhere, unplaced, out } = await checked()
    // An @ts-expect-error that compiles after all would be "Unused '@ts-expect-error' directive" here.
    assert.equal(errors.filter((e) => e.file === fixture.path), [], `tsc reports nothing in the fixture itself:\n${out}`)
    assert.equal(elsewhere, [], 'nor in the package it imports')
    assert.equal(unplaced, [], 'tsc printed nothing but errors')
  })

  test('every mark in the fixture names the error code it expects', () => {
    const marks = marksOf(fixture.text.split('\n'))
    assert.ok(marks.length >= leastMarks, `${marks.length} expected errors in the fixture`)
    assert.equal(marks.filter((m) => !m.code), [], 'each @ts-expect-error is followed by its TSnnnn code')
  })

  test('without the @ts-expect-error marks, tsc reports each mistake on its own line, with the code marked', async () => {
    const marks = marksOf(fixture.text.split('\n'))
    const { code, errors, out } = await checked()
    assert.is.not(code, 0)
    // One error per marked line, of the marked code: a mistake refused for another reason
    // (a missing argument where a wrong name was meant) would show here.
    const found = errors.filter((e) => e.file === fixture.unmarked.path).map(({ line, code }) => ({ line, code }))
    assert.equal(found, marks, `errors on exactly the marked lines, with the marked codes:\n${out}`)
  })
}
