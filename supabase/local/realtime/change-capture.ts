// Where the stand-in's postgres_changes come from. Supabase Realtime reads the WAL through a
// replication slot; PGlite has none, so an AFTER ROW trigger on every table of the
// `supabase_realtime` publication copies each change into a queue table and NOTIFYs; the realtime
// server drains the queue when the notification arrives, which Postgres delivers only after the
// writing transaction commits (so rolled-back changes are never seen, as with the WAL).
//
// The migrations only say which tables are published; the triggers are ours and are (re)installed
// at every start and whenever the schema cache reloads, so the migrations stay valid for hosted
// Supabase. Everything lives in the `humo_realtime` schema, which the API roles cannot reach.
import type { PGlite } from '@electric-sql/pglite'

export const CHANGES_CHANNEL = 'humo_realtime'
const TRIGGER_NAME = 'humo_realtime_capture'

const SETUP_SQL = `
create schema if not exists humo_realtime;
revoke all on schema humo_realtime from public;

create table if not exists humo_realtime.changes (
  id bigserial primary key,
  schema_name text not null,
  table_name text not null,
  type text not null,
  record jsonb,
  old_record jsonb,
  commit_timestamp timestamptz not null default clock_timestamp()
);

-- security definer: the writer (anon, authenticated) cannot reach humo_realtime itself.
create or replace function humo_realtime.capture() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into humo_realtime.changes (schema_name, table_name, type, record, old_record)
  values (
    tg_table_schema,
    tg_table_name,
    tg_op,
    case when tg_op <> 'DELETE' then to_jsonb(new) end,
    case when tg_op <> 'INSERT' then to_jsonb(old) end
  );
  -- Identical notifications within one transaction are folded into one by Postgres.
  perform pg_notify('${CHANGES_CHANNEL}', '');
  return null;
end;
$$;
revoke all on function humo_realtime.capture() from public;
`

export interface PublishedTable {
  schema: string
  table: string
  /** Column name → Postgres type name as Realtime reports it (udt name: int4, _text, ...). */
  columns: { name: string; type: string }[]
  primaryKey: string[]
  /** Generated columns: Postgres computes them, so a re-insert of an old row leaves them out. */
  generated: string[]
}

/** Installs the queue and a capture trigger on each published table; removes stale triggers. */
export async function installChangeCapture(db: PGlite): Promise<Map<string, PublishedTable>> {
  await db.exec(SETUP_SQL)
  const published = await db.query<{ schema: string; table: string }>(
    `select schemaname as schema, tablename as table from pg_publication_tables
      where pubname = 'supabase_realtime'`,
  )
  const existing = await db.query<{ schema: string; table: string }>(
    `select n.nspname as schema, c.relname as table
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where t.tgname = $1`,
    [TRIGGER_NAME],
  )
  const key = (r: { schema: string; table: string }) => `${r.schema}.${r.table}`
  const wanted = new Set(published.rows.map(key))
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
  const target = (r: { schema: string; table: string }) => `${quote(r.schema)}.${quote(r.table)}`
  for (const row of existing.rows) {
    if (!wanted.has(key(row))) await db.exec(`drop trigger ${TRIGGER_NAME} on ${target(row)}`)
  }
  const have = new Set(existing.rows.map(key))
  for (const row of published.rows) {
    if (have.has(key(row))) continue
    await db.exec(
      `create trigger ${TRIGGER_NAME} after insert or update or delete on ${target(row)}
       for each row execute function humo_realtime.capture()`,
    )
  }

  const columns = await db.query<{
    schema: string
    table: string
    name: string
    type: string
    in_key: boolean
    generated: boolean
  }>(
    `select n.nspname as schema, c.relname as table, a.attname as name, t.typname as type,
            coalesce(a.attnum = any(i.indkey), false) as in_key, a.attgenerated <> '' as generated
       from pg_publication_tables p
       join pg_namespace n on n.nspname = p.schemaname
       join pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       join pg_type t on t.oid = a.atttypid
       left join pg_index i on i.indrelid = c.oid and i.indisprimary
      where p.pubname = 'supabase_realtime'
      order by n.nspname, c.relname, a.attnum`,
  )
  const tables = new Map<string, PublishedTable>()
  for (const row of columns.rows) {
    const id = key(row)
    let table = tables.get(id)
    if (!table) {
      table = { schema: row.schema, table: row.table, columns: [], primaryKey: [], generated: [] }
      tables.set(id, table)
    }
    table.columns.push({ name: row.name, type: row.type })
    if (row.in_key) table.primaryKey.push(row.name)
    if (row.generated) table.generated.push(row.name)
  }
  return tables
}

export interface CapturedChange {
  id: number
  schema_name: string
  table_name: string
  type: 'INSERT' | 'UPDATE' | 'DELETE'
  record: Record<string, unknown> | null
  old_record: Record<string, unknown> | null
  commit_timestamp: Date
}

/**
 * Takes every queued change, oldest first. Its commit does not wait for the disk: the queue is
 * transient (a crash loses the sockets it was for), and a synced commit here was a second fsync
 * per order, blocking the event loop (docs/decisions/041-group-commit.md). The set_config in the statement makes
 * it one round trip; synchronous_commit is read at commit, so it applies to this transaction.
 */
/**
 * Empties the queue without reading it: nobody is connected to be told (an order's change rows,
 * its product's whole row among them, cost ~0.3 ms to return and parse). Transient like above.
 */
export async function dropChanges(db: PGlite): Promise<void> {
  await db.query(
    `delete from humo_realtime.changes
      where (select set_config('synchronous_commit', 'off', true)) is not null`,
  )
}

export async function takeChanges(db: PGlite): Promise<CapturedChange[]> {
  const { rows } = await db.query<CapturedChange>(
    `delete from humo_realtime.changes
      where (select set_config('synchronous_commit', 'off', true)) is not null
      returning id::float8 as id, schema_name, table_name, type, record, old_record,
                commit_timestamp`,
  )
  return rows.sort((a, b) => a.id - b.id)
}
