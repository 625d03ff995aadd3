#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { createApiKey } from '../../core/access/api-keys.js'
import { readEnvConfig } from '../platform/config.js'
import { openPlatform } from '../platform/platform.js'

const usage = `usage:
  npm run apikey -- create --name NAME [--expert-level 0..5] [--permission dataProtectionDownload]
  npm run apikey -- list
  npm run apikey -- revoke --name NAME`

/** `npm run apikey`: keys are managed against DATABASE_URL; `create` prints the key alone on stdout. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'expert-level': { type: 'string' },
      permission: { type: 'string', multiple: true },
    },
    strict: true,
  })
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    process.stderr.write(`${usage}\n`)
    return 2
  }
  const config = readEnvConfig()
  const platform = await openPlatform({ databaseUrl: config.databaseUrl, presets: config.presets })
  try {
    const { store, clock } = platform.context
    if (command === 'create') {
      if (!values.name) throw new Error('--name is required')
      const level = values['expert-level'] === undefined ? 0 : Number(values['expert-level'])
      const { secret } = await createApiKey(store.apiKeys, platform.secrets, clock, {
        name: values.name,
        expertLevel: level,
        permissions: values.permission ?? [],
      })
      process.stdout.write(`${secret}\n`)
    } else if (command === 'list') {
      for (const k of await store.apiKeys.list()) {
        const state = k.revokedStamp ? `revoked ${k.revokedStamp}` : 'active'
        process.stdout.write(`${k.name}\texpert level ${k.expertLevel}\t${k.permissions.join(',') || '-'}\t${state}\tcreated ${k.createdStamp}\n`)
      }
    } else {
      if (!values.name) throw new Error('--name is required')
      if (!(await store.apiKeys.revoke(values.name, clock.now()))) throw new Error(`no active key named ${values.name}`)
      process.stderr.write(`revoked ${values.name}\n`)
    }
    return 0
  } finally {
    await platform.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`apikey: ${(error as Error).message}\n`)
    process.exit(1)
  },
)
