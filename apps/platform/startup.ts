import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { EnvConfig } from './config.js'
import { createLogger, type Logger } from './logger.js'

/**
 * Runs a command's start-up; whatever stops it is one log line at `error` and exit code 1.
 * Settings are checked before anything is written, so a refused start leaves nothing behind.
 */
export function runMain(event: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    // The settings may be what failed (LOG_LEVEL among them): this line uses the defaults.
    createLogger().error({ error: (error as Error)?.message ?? String(error) }, event)
    process.exitCode = 1
    // pino flushes what is pending on exit.
    setImmediate(() => process.exit(1))
  })
}

/**
 * A BILLING_DR_DIR that was given must be a directory we can read (and write, with a password):
 * a mount that is missing would otherwise lose every archive or hide the old ones.
 */
export async function checkArchiveDir(config: EnvConfig): Promise<void> {
  if (!config.drDirGiven) return
  const info = await stat(config.drDir).catch(() => null)
  if (!info?.isDirectory()) throw new Error(`BILLING_DR_DIR ${config.drDir} is not a directory (create it, or unset BILLING_DR_DIR for ./data/dr)`)
  const mode = config.drPassword ? constants.R_OK | constants.W_OK : constants.R_OK
  await access(config.drDir, mode).catch(() => {
    throw new Error(`BILLING_DR_DIR ${config.drDir} is not ${config.drPassword ? 'readable and writable' : 'readable'} by this process`)
  })
}

/**
 * Listens, or fails with one sentence (a port in use is a setting to change, not a stack trace);
 * `setting` names the variable that gave the port.
 */
export function listen(server: Server, port: number, host: string, setting = 'PORT'): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`
      if (error.code === 'EADDRINUSE') reject(new Error(`${where} is already in use (set ${setting} to a free port, or ${setting}=0 for any)`))
      else if (error.code === 'EACCES') reject(new Error(`${where} may not be listened on by this user (EACCES)`))
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new Error(`HOST ${host} is not an address of this machine (${error.code})`))
      else reject(error)
    }
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      const address = server.address()
      resolve(typeof address === 'object' && address ? address.port : port)
    })
  })
}
