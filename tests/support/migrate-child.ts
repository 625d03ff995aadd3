import { connect } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'

/**
 * A process that migrates the database `argv[2]` when its parent says so (tests/persistence/
 * migration-runs.test.ts): it says `ready` once connected, migrates on the parent's first
 * message, and exits 0, or 1 with the error on stderr. With `argv[3]` it kills itself (SIGKILL,
 * as a power cut or the OOM killer would) right after the first statement matching that pattern.
 */
const [url, killAfter] = process.argv.slice(2)
const kill = killAfter ? new RegExp(killAfter, 'i') : null
const database = connect(url!, { onQuery: (sql) => void (kill?.test(sql) && process.kill(process.pid, 'SIGKILL')) })
process.once('message', async () => {
  try {
    await migrate(database)
    await database.close()
    process.exit(0)
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
})
process.send!('ready')
