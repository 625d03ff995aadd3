import { BlockList, isIPv4, isIPv6 } from 'node:net'

/**
 * Addresses a webhook must not reach unless private targets are allowed
 * (BILLING_WEBHOOK_ALLOW_PRIVATE): the machine itself, the networks beside it, the cloud's
 * metadata service, and addresses that are not one host on the Internet. A worker POSTs
 * wherever a level-5 key points it, so without this a key could probe the inside (SSRF).
 */
const RANGES: readonly (readonly [kind: string, subnets: readonly string[]])[] = [
  ['unspecified', ['0.0.0.0/8', '::/128']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']],
  // 169.254.169.254 (and fd00:ec2::254, in fc00::/7) is the cloud metadata service.
  ['link-local', ['169.254.0.0/16', 'fe80::/10', 'fec0::/10']],
  ['carrier-grade NAT', ['100.64.0.0/10']],
  ['reserved', ['192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4', '2001:db8::/32', '100::/64']],
  ['multicast', ['224.0.0.0/4', 'ff00::/8']],
  // RFC 8215: each network picks its own prefix length inside it, so where the IPv4 address
  // sits is unknown; the prefix is not reachable from the Internet anyway.
  ['local-use NAT64', ['64:ff9b:1::/48']],
]

const lists = RANGES.map(([kind, subnets]) => {
  const list = new BlockList()
  for (const subnet of subnets) {
    const [network, prefix] = subnet.split('/')
    list.addSubnet(network, Number(prefix), isIPv4(network) ? 'ipv4' : 'ipv6')
  }
  return { kind, list }
})

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number)
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null]
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const middle = tail === null ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16))
}

/**
 * The IPv4 addresses an IPv6 one carries: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
 * (SIIT, `::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`), 6to4
 * (`2002:AABB:CCDD::`) and Teredo (`2001:0:server:flags:port:~client`). Each reaches that IPv4
 * host, so it is judged as that host.
 */
function embeddedIPv4(address: string): string[] {
  const g = groups(address)
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  if (zeros(0, 5) && (g[5] === 0xffff || (g[5] === 0 && !(g[6] === 0 && g[7] <= 1)))) return [v4(g[6], g[7])]
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [v4(g[6], g[7])]
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [v4(g[6], g[7])]
  if (g[0] === 0x2002) return [v4(g[1], g[2])]
  // The client's address is stored inverted; the server's is judged too, as a relay may send through it.
  if (g[0] === 0x2001 && g[1] === 0) return [v4(g[6] ^ 0xffff, g[7] ^ 0xffff), v4(g[2], g[3])]
  return []
}

/**
 * Why an IP address is not a public host (`"loopback"`, `"private"`, `"link-local"`, ...), or
 * null for a public one. Anything that is not an IP address at all is refused too.
 */
export function nonPublicKind(address: string): string | null {
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null
  if (!family) return 'not an IP address'
  if (family === 'ipv6') {
    const inner = embeddedIPv4(address)
    if (inner.length) return inner.map(nonPublicKind).find((kind) => kind !== null) ?? null
  }
  return lists.find(({ list }) => list.check(address, family))?.kind ?? null
}
