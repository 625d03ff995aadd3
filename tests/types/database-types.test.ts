import { resolve } from 'node:path'
import { test } from 'uvu'
import { fixtureTests } from '../support/type-fixtures.js'

fixtureTests(test, 'typed queries', resolve('tests/types/fixtures/database-usage.ts'), 'tests/types/tsconfig.database.json', 10)

test.run()
