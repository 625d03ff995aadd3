import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../tests/support/server-process.js'
import type { SoakTarget } from './soak/probe.js'
import { probes as requestProbes } from './soak/probes.js'
import { privateWebhookProbes, webhookProbes, type Probe as WebhookProbe } from './soak/webhook-probes.js'

/** A webhook probe (it speaks to the API with a key) as one of the list's. */
const asProbe = (p: WebhookProbe, what: string) => ({ name: p.name, what, run: async (t: SoakTarget) => ((await p.run(t.base, t.key)) === 'held' ? null : 'broke') })
const probes = [...requestProbes, ...webhookProbes.map((p) => asProbe(p, 'webhook URLs inside the network are refused, and nothing reaches a receiver on 127.0.0.1'))]
/** Probes whose receivers are on 127.0.0.1: a server that allows private webhook targets, its scheduler on. */
const privateProbes = privateWebhookProbes.map((p) => asProbe(p, 'a receiver that never answers delays only its own webhook'))

/**
 * `npm run soak [-- --url http://127.0.0.1:8080 --key KEY] [--only name,name]`: runs each
 * hostile-client probe (bench/soak/probes.ts) briefly against a server and prints `held` or
 * `broke` for each. Without --url it starts a server of its own on a scratch SQLite file, with
 * its limits set small so that each probe takes about one of them. Only 127.0.0.1 is probed.
 * Exits 1 when a probe broke.
 */
const SMALL_LIMITS = {
  BILLING_REQUEST_TIMEOUT_MS: '3000',
  BILLING_BODY_TIMEOUT_MS: '1000',
  BILLING_HEADERS_TIMEOUT_MS: '1000',
  BILLING_IDLE_TIMEOUT_MS: '1000',
  BILLING_SEND_TIMEOUT_MS: '1000',
  BILLING_MAX_CONNECTIONS: '200',
  BILLING_RATE_LIMIT: '0',
}

async function main(): Promise<void> {
  const args = options(process.argv.slice(2))
  let server: ReturnType<typeof startServer> | null = null
  let dir: string | null = null
  let target: SoakTarget
  if (args.url) {
    const url = new URL(args.url)
    if (url.hostname !== '127.0.0.1') throw new Error('--url must be on 127.0.0.1: the probes are hostile')
    if (!args.key) throw new Error('--url needs --key (an API key of that server)')
    // The server's limits are its own: wait as long as its defaults take (the idle timeout, 65 s).
    target = { root: url.origin, base: `${url.origin}/backend/api/v1`, port: Number(url.port), key: args.key, patienceMs: Number(args.patience ?? 90_000) }
  } else {
    dir = mkdtempSync(join(tmpdir(), 'billing-soak-'))
    server = startServer({ DATABASE_URL: `sqlite:${join(dir, 'soak.sqlite')}`, ...SMALL_LIMITS })
    const base = await server.ready
    const key = /shown only once:\n(\S+)/.exec(server.out())![1]
    const root = new URL(base).origin
    target = { root, base, port: Number(new URL(base).port), key, patienceMs: Number(args.patience ?? 15_000) }
  }
  let broke = 0
  const run = async (list: readonly { name: string; what: string; run(t: SoakTarget): Promise<string | null> }[], on: SoakTarget) => {
    for (const probe of list.filter((p) => !args.only || args.only.split(',').includes(p.name))) {
      const started = performance.now()
      const failure = await probe.run(on).catch((e: Error) => `threw ${e.message}`)
      const ms = Math.round(performance.now() - started)
      if (failure) broke++
      console.log(`${failure ? 'broke' : 'held '}  ${probe.name.padEnd(20)} ${String(ms).padStart(6)} ms  ${failure ?? probe.what}`)
    }
  }
  let second: ReturnType<typeof startServer> | null = null
  try {
    await run(probes, target)
    // A server of its own that lets webhooks reach 127.0.0.1, for the receivers these probes start.
    if (dir && privateProbes.some((p) => !args.only || args.only.split(',').includes(p.name))) {
      second = startServer({ DATABASE_URL: `sqlite:${join(dir, 'soak-private.sqlite')}`, BILLING_WEBHOOK_ALLOW_PRIVATE: 'true', BILLING_SCHEDULER: 'on', ...SMALL_LIMITS })
      const base = await second.ready
      const key = /shown only once:\n(\S+)/.exec(second.out())![1]
      await run(privateProbes, { ...target, root: new URL(base).origin, base, port: Number(new URL(base).port), key })
    }
  } finally {
    for (const s of [server, second]) {
      if (!s) continue
      s.child.kill('SIGTERM')
      await s.exited
    }
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
  process.exitCode = broke ? 1 : 0
}

function options(argv: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (let i = 0; i < argv.length; i++) if (argv[i].startsWith('--')) out[argv[i].slice(2)] = argv[i + 1]?.startsWith('--') ? 'true' : argv[++i]
  return out
}

main().catch((e: Error) => {
  console.error(e.message)
  process.exitCode = 1
})
