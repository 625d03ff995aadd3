import { resolve } from 'node:path'
import { test } from 'uvu'
import { fixtureTests } from '../support/type-fixtures.js'

fixtureTests(test, 'typed library calls', resolve('tests/types/fixtures/library-usage.ts'), 'tests/types/tsconfig.json', 20)

test.run()
