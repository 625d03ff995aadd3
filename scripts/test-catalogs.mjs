// The suites create and drop a few hundred Postgres schemas a run, each some 200 tables, indexes
// and sequences, and every one leaves dead rows in the system catalogs. Where autovacuum is off
// (as on these CI machines) nothing ever removes them: after some runs pg_class held 410 live
// rows in 52 MB and pg_attribute 249 MB, and every catalog read grew slower (a schema's copy and
// drop 0.44 s a harness, 0.34 s after the vacuum; Kysely's migrator's introspection 0.10 s).
// The run starts by compacting them: under a second. A role that may not vacuum them is told so
// by Postgres and the run goes on as it is.
import pg from 'pg'

const catalogs = ['pg_attribute', 'pg_depend', 'pg_class', 'pg_index', 'pg_type', 'pg_constraint', 'pg_trigger', 'pg_attrdef', 'pg_sequence', 'pg_statistic', 'pg_inherits']

/** Compacts the catalogs the suites' schemas churn, in the database `url` names. */
export async function compactCatalogs(url) {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    client.on('notice', (n) => console.log(`[test-catalogs] ${n.message}`))
    await client.query(`vacuum full ${catalogs.map((c) => `pg_catalog.${c}`).join(', ')}`)
  } catch (error) {
    console.log(`[test-catalogs] the Postgres catalogs were not compacted: ${error.message}`)
  } finally {
    await client.end().catch(() => {})
  }
}
