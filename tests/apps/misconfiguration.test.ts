import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readEnvConfig } from '../../apps/platform/config.js'
import { startServer } from '../support/server-process.js'

/**
 * Misconfiguration stops the server before anything is written (contract 13): one log line at
 * `error` naming the setting, exit code 1, no stack trace, and no database file, so the admin key
 * is still printed by the first start that succeeds.
 */
const test = suite<{ dir: string }>('apps: misconfiguration fails before anything is written')
test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'billing-misconfig-'))
})
test.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }))

/** The error lines of a refused start: exactly one, JSON, with no stack frames anywhere. */
function oneErrorLine(stderr: string): { msg: string; error: string } {
  assert.not.match(stderr, /\n\s+at /, `no stack trace: ${stderr}`)
  const lines = stderr.split('\n').filter((l) => l.trim())
  const errors = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 'error' || l.level === 'fatal')
  assert.is(errors.length, 1, stderr)
  return errors[0]
}

test('a bad cron pattern: one clear line, exit 1, no key printed; the next good start prints the key', async ({ dir }) => {
  const db = join(dir, 'cron.sqlite')
  const bad = startServer({ DATABASE_URL: `sqlite:${db}`, BILLING_SCHEDULER: 'on', BILLING_SCHEDULE_BILLING_POLL: 'every now and then' })
  bad.ready.catch(() => {})
  assert.is(await bad.exited, 1)
  assert.match(oneErrorLine(bad.err()).error, /BILLING_SCHEDULE_BILLING_POLL/)
  assert.not.match(bad.out(), /shown only once/)
  assert.not.ok(existsSync(db), 'the database was not created')
  const good = startServer({ DATABASE_URL: `sqlite:${db}` })
  await good.ready
  assert.match(good.out(), /shown only once:\ntbk_/)
  good.child.kill('SIGTERM')
  assert.is(await good.exited, 0)
})

test('a port in use: one line that names it, exit 1, no stack trace, nothing written', async ({ dir }) => {
  const holder: Server = createServer()
  const port = await new Promise<number>((resolve) =>
    holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)),
  )
  try {
    const db = join(dir, 'port.sqlite')
    const s = startServer({ DATABASE_URL: `sqlite:${db}`, PORT: String(port) })
    s.ready.catch(() => {})
    assert.is(await s.exited, 1)
    assert.match(oneErrorLine(s.err()).error, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`))
    assert.not.ok(existsSync(db), 'the database was not created')
  } finally {
    holder.close()
  }
})

test('a BILLING_DR_DIR that does not exist: one line that names it, exit 1', async ({ dir }) => {
  const db = join(dir, 'dr.sqlite')
  const s = startServer({ DATABASE_URL: `sqlite:${db}`, BILLING_DR_DIR: join(dir, 'no-such-mount') })
  s.ready.catch(() => {})
  assert.is(await s.exited, 1)
  assert.match(oneErrorLine(s.err()).error, /BILLING_DR_DIR .*no-such-mount is not a directory/)
  assert.not.ok(existsSync(db))
})

test('a connection limit, timeout, retention, batch size or switch out of its range: one line that names it, exit 1, nothing written', async ({ dir }) => {
  const db = join(dir, 'limits.sqlite')
  const positive = 'must be a positive whole number'
  const cases = [
    ['BILLING_MAX_CONNECTIONS', 'many', positive],
    ['BILLING_WEBHOOK_TIMEOUT_MS', 'soon', positive],
    ['BILLING_CALLBACK_RETENTION_DAYS', '0', positive],
    // Node fires a timer longer than 2^31 - 1 ms after 1 ms: every body read would time out.
    ['BILLING_BODY_TIMEOUT_MS', '3000000000', 'must be at most 2147483647 milliseconds'],
    // A fraction reached the billing run's SQL, which refused it at every run.
    ['BILLING_BATCH_SIZE', '0.5', positive],
    // Anything but "off" used to run the jobs.
    ['BILLING_SCHEDULER', 'false', 'must be one of on, off'],
  ]
  for (const [name, value, message] of cases) {
    const s = startServer({ DATABASE_URL: `sqlite:${db}`, [name]: value })
    // A start that takes the value serves until stopped: stopped here, it fails the case.
    const outcome = await s.ready.then(() => (s.child.kill('SIGTERM'), `started with ${name}=${value}`), () => s.exited)
    assert.is(outcome, 1, name)
    assert.match(oneErrorLine(s.err()).error, new RegExp(`${name} ${message}`))
  }
  assert.not.ok(existsSync(db))
})

test('the values those settings refuse and take (read in this process: no start each)', () => {
  const refused = (env: Record<string, string>, message: RegExp) => assert.throws(() => readEnvConfig(env), message, JSON.stringify(env))
  for (const name of ['BILLING_BATCH_SIZE', 'BILLING_BATCH_FEATURES', 'BILLING_PARTITION_FEATURES']) {
    for (const value of ['abc', '0.5', '0', '-1', '1e400']) refused({ [name]: value }, new RegExp(`^${name} must be a positive whole number \\(got ${value}\\)$`))
  }
  assert.equal(
    [readEnvConfig({}).schedules, readEnvConfig({ BILLING_BATCH_SIZE: '7', BILLING_BATCH_FEATURES: '8', BILLING_PARTITION_FEATURES: '9' }).schedules].map((s) => [s.billingBatchSize, s.billingBatchFeatures, s.billingPartitionFeatures]),
    [[500, 1000, 20000], [7, 8, 9]],
  )
  for (const value of ['false', 'OFF', 'Off', '0', 'no', 'true', 'yes', ' off']) refused({ BILLING_SCHEDULER: value }, /^BILLING_SCHEDULER must be one of on, off \(got "/)
  assert.equal(['on', 'off', ''].map((v) => readEnvConfig({ BILLING_SCHEDULER: v }).scheduler), [true, false, true])
  assert.is(readEnvConfig({}).scheduler, true)
  // Zero and negative timeouts (the processes above cover the line and the exit; this, each value).
  for (const name of ['BILLING_SEND_TIMEOUT_MS', 'BILLING_BODY_TIMEOUT_MS']) for (const value of ['0', '-5']) refused({ [name]: value }, new RegExp(`^${name} must be a positive whole number`))
  const timers = ['BILLING_REQUEST_TIMEOUT_MS', 'BILLING_HEADERS_TIMEOUT_MS', 'BILLING_BODY_TIMEOUT_MS', 'BILLING_IDLE_TIMEOUT_MS', 'BILLING_SEND_TIMEOUT_MS', 'BILLING_LEASE_MS', 'BILLING_KEY_CACHE_MS', 'BILLING_WEBHOOK_TIMEOUT_MS']
  for (const name of timers) {
    refused({ [name]: '2147483648' }, new RegExp(`^${name} must be at most 2147483647 milliseconds`))
    refused({ [name]: '3000000000' }, new RegExp(`^${name} must be at most 2147483647 milliseconds`))
    assert.not.throws(() => readEnvConfig({ [name]: '2147483647' }), name)
  }
  assert.is(readEnvConfig({ BILLING_KEY_CACHE_MS: '0' }).keyCacheMs, 0)
})

// Audit: BILLING_PROVIDER_SECRET_<NAME> was taken as it came; 'x' base64-decodes to an empty HMAC key.
test('a BILLING_PROVIDER_SECRET_<NAME> that is not whsec_ and base64 of a 16-byte key stops the start, naming it and not the secret', () => {
  for (const secret of ['x', '!!!!!!!!!!!!!!!!', 'whsec_c2VjcmV0', 'a long passphrase, not base64 at all']) {
    assert.throws(
      () => readEnvConfig({ BILLING_PROVIDER_SECRET_GOCARDLESS: secret }),
      (e: Error) => /^BILLING_PROVIDER_SECRET_GOCARDLESS must be whsec_ followed by standard base64/.test(e.message) && !e.message.includes(secret),
      secret,
    )
  }
  const good = 'whsec_' + Buffer.from('a provider callback secret, 32b!').toString('base64')
  const providers = readEnvConfig({ BILLING_PROVIDER_SECRET_GOCARDLESS: good }).presets.paymentProviders
  assert.is(providers.find((p) => p.name === 'gocardless')?.callbackSecret, good)
})

test('a DATABASE_URL of no supported kind: one line that names it, exit 1', async () => {
  const s = startServer({ DATABASE_URL: 'mysql://root@127.0.0.1/billing' })
  s.ready.catch(() => {})
  assert.is(await s.exited, 1)
  assert.match(oneErrorLine(s.err()).error, /DATABASE_URL|mysql/)
})

test('a presets file whose seller has no name: one line that says so, exit 1, nothing written', async ({ dir }) => {
  const db = join(dir, 'seller.sqlite')
  const presets = join(dir, 'seller-presets.json')
  writeFileSync(presets, JSON.stringify({ seller: { address: ['1 Street'], VATNumber: 'GB 123' } }))
  const s = startServer({ DATABASE_URL: `sqlite:${db}`, BILLING_PRESETS_FILE: presets })
  s.ready.catch(() => {})
  assert.is(await s.exited, 1)
  assert.match(oneErrorLine(s.err()).error, /seller\.name/)
  assert.not.ok(existsSync(db), 'the database was not created')
})

test('a BILLING_SMTP_URL that is not smtp:// or smtps://: one line that names it, exit 1', async ({ dir }) => {
  const db = join(dir, 'smtp.sqlite')
  const s = startServer({ DATABASE_URL: `sqlite:${db}`, BILLING_SMTP_URL: 'http://mail.example.com' })
  s.ready.catch(() => {})
  assert.is(await s.exited, 1)
  assert.match(oneErrorLine(s.err()).error, /BILLING_SMTP_URL/)
  assert.not.ok(existsSync(db))
})

test.run()
