/** The server a probe runs against (always on 127.0.0.1). */
export interface SoakTarget {
  /** `http://127.0.0.1:<port>`, without the API's base path. */
  readonly root: string
  /** `root` + `/backend/api/v1`. */
  readonly base: string
  readonly port: number
  /** An API key, for probes that need one. */
  readonly key: string
  /** How long a probe waits for the server to do what it should (a guard, from the server's limits). */
  readonly patienceMs: number
}

/**
 * One hostile client, run briefly: resolves with null when the server held (did what it
 * should), or with what went wrong. A probe is one entry of `probes` (probes.ts).
 */
export interface Probe {
  readonly name: string
  /** What the client does, and what holding means. */
  readonly what: string
  run(target: SoakTarget): Promise<string | null>
}
