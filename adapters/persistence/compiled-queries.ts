import { createQueryId, sql, type Compilable, type CompiledQuery, type RawBuilder } from 'kysely'
import type { Db } from './schema/tables.js'

/**
 * Queries Kysely builds and compiles once per database and then runs again with other
 * parameter values. Building a query's tree and compiling its SQL cost more CPU than SQLite
 * took to run a read by primary key (bench/get-customer.ts), so the reads made on every request
 * (an API key by its hash, one row by ID) keep theirs. A query kept here must have the same SQL
 * whatever its values; the values are passed in the order the SQL takes them.
 *
 * One instance belongs to one root database (connect() or an embedder's Kysely) and is shared
 * by its transactions: another Kysely, with other plugins or another schema, compiles differently.
 */
export class CompiledQueries {
  private readonly compiled = new Map<string, CompiledQuery>()
  private readonly fragments = new Map<string, RawBuilder<unknown>>()

  /**
   * A piece of SQL without parameters (the JSON expression of a list read), compiled once and
   * then used as text: compiling a customer's members anew showed in every list request
   * (bench/lists.ts; figures in bench/RESULTS.md).
   */
  fragment(db: Db, name: string, build: () => RawBuilder<unknown>): RawBuilder<unknown> {
    let fragment = this.fragments.get(name)
    if (!fragment) {
      const compiled = build().compile(db)
      if (compiled.parameters.length) throw new Error(`SQL fragment ${name} has parameters`)
      fragment = sql.raw(compiled.sql)
      this.fragments.set(name, fragment)
    }
    return fragment
  }

  /** Runs the query named `name`, compiling `build()` the first time; returns its rows. */
  async rows<R = Record<string, unknown>>(db: Db, name: string, build: () => Compilable, parameters: readonly unknown[]): Promise<R[]> {
    const query = this.once(name, build, (q) =>
      q.parameters.length === parameters.length ? null : `takes ${q.parameters.length} parameters, given ${parameters.length}`,
    )
    return this.run<R>(db, query, parameters)
  }

  /**
   * `rows` of a query whose one varying value is `key`, built by `build(key)`: its other
   * parameters (a list JSON's constants) are the values it was compiled with.
   */
  async rowsByKey<R = Record<string, unknown>>(db: Db, name: string, build: (key: unknown) => Compilable, key: unknown): Promise<R[]> {
    const query = this.once(name, () => build(KEY), (q) => (q.parameters.includes(KEY) ? null : 'does not take its key'))
    return this.run<R>(db, query, query.parameters.map((p) => (p === KEY ? key : p)))
  }

  /** The query named `name`, compiled from `build()` the first time and checked (`problem`: what is wrong with it, or null). */
  private once(name: string, build: () => Compilable, problem: (query: CompiledQuery) => string | null): CompiledQuery {
    let query = this.compiled.get(name)
    if (!query) {
      query = build().compile()
      const wrong = problem(query)
      if (wrong) throw new Error(`compiled query ${name} ${wrong}`)
      this.compiled.set(name, query)
    }
    return query
  }

  private async run<R>(db: Db, query: CompiledQuery, parameters: readonly unknown[]): Promise<R[]> {
    // A query ID per execution: plugins key their per-query state on it.
    const result = await db.executeQuery<R>({ ...query, queryId: createQueryId(), parameters })
    return result.rows
  }
}

/** Where a `rowsByKey` query takes its key. */
const KEY = Symbol('key')
