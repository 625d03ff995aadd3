import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { isIP } from 'node:net'
import type { WebhookTargets } from '../../core/ports/webhook-targets.js'
import { nonPublicKind } from './address-ranges.js'

/** Resolves a name to every address it has (dns.lookup, as connections do: /etc/hosts too). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>

export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) => lookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))))

/** A lookup that does not answer in this long does not hold up a create: delivery checks again. */
const RESOLVE_MS = 5_000

/** A URL's host without IPv6 brackets or a final dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase()
}

/**
 * Why a host is refused before any lookup: an IP address that is not public, or a `localhost`
 * name (RFC 6761: the machine itself, whatever DNS says). Null for other names.
 */
export function literalRefusal(host: string): string | null {
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} names this machine`
  if (!isIP(host)) return null
  const kind = nonPublicKind(host)
  return kind ? `${host} is a ${kind} address` : null
}

/** The addresses of a lookup a webhook may connect to, and a sentence on the ones it may not. */
export function publicAddresses(host: string, addresses: readonly LookupAddress[]): { allowed: LookupAddress[]; refused: string } {
  const allowed = addresses.filter((a) => nonPublicKind(a.address) === null)
  const refused = addresses
    .filter((a) => nonPublicKind(a.address) !== null)
    .map((a) => `${a.address} (${nonPublicKind(a.address)})`)
    .join(', ')
  return { allowed, refused: `${host} resolves only to addresses that are not public: ${refused}` }
}

/**
 * The check at create and update: a literal address or `localhost` name, or a name whose every
 * address is not public. A name with some public address is accepted (deliveries connect only
 * to those); a name that does not resolve now is accepted too, since each delivery looks it up
 * again and checks what it connects to (`guardedLookup`).
 */
export class ResolvingWebhookTargets implements WebhookTargets {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly resolve: Resolve = systemResolve,
  ) {}

  async refusal(url: string): Promise<string | null> {
    if (this.allowPrivate) return null
    let host: string
    try {
      host = hostOf(new URL(url))
    } catch {
      return null // not a URL: the URL check says so
    }
    const literal = literalRefusal(host)
    if (literal || isIP(host)) return literal
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), RESOLVE_MS)))
    const addresses = await Promise.race([this.resolve(host).catch(() => null), late]).finally(() => clearTimeout(timer))
    if (!addresses?.length) return null
    const { allowed, refused } = publicAddresses(host, addresses)
    return allowed.length ? null : refused
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for http.request that answers only public addresses. The connection is made to
 * the address checked here, so a name that changes its answer between the check and the
 * connection (DNS rebinding) cannot slip an inside address through. IP literals never reach a
 * lookup: the sender checks them with `literalRefusal`.
 */
export function guardedLookup(resolve: Resolve = systemResolve) {
  return (hostname: string, options: LookupAllOptions | { all?: boolean; family?: number }, callback: LookupCallback): void => {
    const host = hostname.replace(/\.$/, '').toLowerCase()
    const literal = literalRefusal(host)
    if (literal) return callback(refusedError(literal), [])
    resolve(hostname).then(
      (addresses) => {
        const family = typeof options.family === 'number' ? options.family : 0
        const { allowed, refused } = publicAddresses(host, addresses.filter((a) => family === 0 || a.family === family))
        if (allowed.length === 0) return callback(refusedError(refused), [])
        if (options.all) callback(null, allowed)
        else callback(null, allowed[0].address, allowed[0].family)
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    )
  }
}

/** The error a refused connection fails with; its message is the attempt's recorded error. */
export function refusedError(reason: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`refused: ${reason} (BILLING_WEBHOOK_ALLOW_PRIVATE is not set)`), { code: 'EWEBHOOKPRIVATE' })
}
