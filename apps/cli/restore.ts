#!/usr/bin/env node
import { access } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { restoreArchive } from '../../adapters/archive/restore-archive.js'
import { connect } from '../../adapters/persistence/connect.js'

const usage = `usage:
  npm run restore -- --archive FILE [--password-env BILLING_DR_PASSWORD] [--work-dir DIR]

Restores a disaster-recovery archive into the empty database at DATABASE_URL (see docs/restore.md).
The password is read from the named environment variable, never from the command line.`

/** `npm run restore`: decrypt, migrate, load every table in one transaction, report on stderr. */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      archive: { type: 'string' },
      'password-env': { type: 'string', default: 'BILLING_DR_PASSWORD' },
      'work-dir': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  })
  if (values.help || !values.archive) {
    process.stderr.write(`${usage}\n`)
    return values.help ? 0 : 2
  }
  const variable = values['password-env']!
  const password = process.env[variable]
  if (!password) throw new Error(`the environment variable ${variable} holding the archive password is not set`)
  await access(values.archive).catch(() => {
    throw new Error(`no archive at ${values.archive}`)
  })
  const database = connect(process.env.DATABASE_URL || 'sqlite:./data/billing.sqlite')
  try {
    process.stderr.write(`restoring ${values.archive} into ${database.description}\n`)
    const started = performance.now()
    const summary = await restoreArchive({ archive: values.archive, password, database, workDir: values['work-dir'] })
    for (const t of summary.tables) process.stderr.write(`  ${t.table}: ${t.rows} rows\n`)
    if (summary.newerMigrations.length) {
      process.stderr.write(`note: this version added migrations after the archive was made (${summary.newerMigrations.join(', ')}); their new columns are empty\n`)
    }
    const rows = summary.tables.reduce((n, t) => n + t.rows, 0)
    process.stderr.write(`restored ${rows} rows in ${summary.tables.length} tables in ${Math.round(performance.now() - started)} ms\n`)
    return 0
  } finally {
    await database.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`restore: ${(error as Error).message}\n`)
    process.exit(1)
  },
)
