import { readFileSync } from 'node:fs'
import { mergePresets, defaultPresets, type Presets } from '../../core/presets/presets.js'

/** Settings from the environment (contract 1). */
export interface EnvConfig {
  readonly databaseUrl: string
  readonly host: string
  readonly port: number
  readonly presets: Presets
  readonly presetsFile: string | null
  readonly drPassword: string | null
  readonly drDir: string
  readonly drRetentionDays: number
  readonly scheduler: boolean
}

export function readEnvConfig(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  const port = Number(env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0..65535 (got ${env.PORT})`)
  const presetsFile = env.BILLING_PRESETS_FILE || null
  return {
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/billing.sqlite',
    host: env.HOST || '127.0.0.1',
    port,
    presets: presetsFile ? loadPresetsFile(presetsFile) : defaultPresets,
    presetsFile,
    drPassword: env.BILLING_DR_PASSWORD || null,
    drDir: env.BILLING_DR_DIR || './data/dr',
    drRetentionDays: positiveInt('BILLING_DR_RETENTION_DAYS', env.BILLING_DR_RETENTION_DAYS, 7),
    scheduler: (env.BILLING_SCHEDULER ?? 'on') !== 'off',
  }
}

export function loadPresetsFile(path: string): Presets {
  let content: unknown
  try {
    content = JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new Error(`BILLING_PRESETS_FILE ${path}: ${(e as Error).message}`)
  }
  return mergePresets(content)
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number (got ${value})`)
  return n
}
