import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testedBlocks } from '../support/readme-examples.js'
import { typeCheck, type TypeCheck } from '../support/type-check.js'
import { fixture, fixtureTests } from '../support/type-fixtures.js'

/*
 * What must compile, and what must not: the typed library calls and queries (tests/types/fixtures)
 * and the README's TypeScript examples, in one tsc run, since each run type-checks the whole
 * package through index.ts whichever file it starts from.
 */

const library = fixture('tests/types/fixtures/library-usage.ts')
const database = fixture('tests/types/fixtures/database-usage.ts')

// The README's examples import the package by name; here its sources, by the `.js` name of
// index.ts (NodeNext resolution), as the compiled package is imported.
const readme = testedBlocks(readFileSync('README.md', 'utf8'))
  .filter((b) => b.lang === 'ts')
  .map((b, i) => ({ ...b, path: resolve(`.tmp/readme-${process.pid}-line-${b.line}-${i}.ts`), text: b.code.replace(/from\s+(['"])telco-billing\1/g, "from '../index.js'") }))
const misspelt = {
  path: resolve(`.tmp/readme-${process.pid}-misspelt.ts`),
  text: "import type { CustomerInput } from '../index.js'\nexport const c: CustomerInput = { lastName: 'x' }",
}

let run: Promise<TypeCheck> | undefined
const checked = () => (run ??= typeCheck([library, library.unmarked, database, database.unmarked, ...readme, misspelt]))

fixtureTests(test, 'typed library calls', library, checked, 20)
fixtureTests(test, 'typed queries', database, checked, 10)

test('the README has a TypeScript example of the library, and it compiles with the typed calls', async () => {
  assert.ok(readme.some((b) => /createBillingPlatform/.test(b.code) && /CustomerInput/.test(b.code)), 'a typed library example')
  const { errors, elsewhere, out } = await checked()
  const inReadme = new Set(readme.map((b) => b.path))
  assert.equal(errors.filter((e) => inReadme.has(e.file)), [], `tsc reports nothing in the examples:\n${out}`)
  assert.equal(elsewhere, [], 'nor in the package they import')
  assert.ok(errors.some((e) => e.file === misspelt.path && e.code === 'TS2561'), 'and reports a misspelt field')
})

test.run()
