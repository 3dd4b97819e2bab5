// PostgREST's "schema cache" for the stand-in: the tables, columns, foreign keys and functions of
// the exposed schema, read from pg_catalog. The SQL builder checks every identifier against it
// (so nothing from a URL reaches SQL unchecked) and resolves embedded resources through it.
import type { PGlite } from '@electric-sql/pglite'

export const EXPOSED_SCHEMA = 'public'

export interface ColumnInfo {
  name: string
  type: string
  notNull: boolean
  hasDefault: boolean
}

export interface TableInfo {
  name: string
  kind: 'table' | 'view'
  columns: Map<string, ColumnInfo>
  primaryKey: string[]
}

/** A foreign key from `table.columns` to `foreignTable.foreignColumns`. */
export interface ForeignKey {
  constraint: string
  table: string
  columns: string[]
  foreignTable: string
  foreignColumns: string[]
}

export interface FunctionArg {
  name: string
  type: string
  hasDefault: boolean
}

export interface FunctionInfo {
  name: string
  args: FunctionArg[]
  returnType: string
  returnsSet: boolean
  /** Returns rows (a composite, a table type or record) rather than a single value. */
  returnsRows: boolean
  returnsVoid: boolean
  /** OUT / TABLE columns, for `returns table (...)` and OUT-parameter functions. */
  outColumns: { name: string; type: string }[]
  volatility: 'immutable' | 'stable' | 'volatile'
}

export interface SchemaCache {
  tables: Map<string, TableInfo>
  foreignKeys: ForeignKey[]
  functions: Map<string, FunctionInfo[]>
}

export async function loadSchemaCache(db: PGlite): Promise<SchemaCache> {
  const tables = new Map<string, TableInfo>()

  const columns = await db.query<{
    table_name: string
    relkind: string
    column_name: string
    column_type: string
    not_null: boolean
    has_default: boolean
  }>(
    `select c.relname as table_name, c.relkind::text as relkind, a.attname as column_name,
            format_type(a.atttypid, a.atttypmod) as column_type, a.attnotnull as not_null,
            (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as has_default
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f')
      order by c.relname, a.attnum`,
    [EXPOSED_SCHEMA],
  )
  for (const row of columns.rows) {
    let table = tables.get(row.table_name)
    if (!table) {
      table = {
        name: row.table_name,
        kind: row.relkind === 'r' || row.relkind === 'p' ? 'table' : 'view',
        columns: new Map(),
        primaryKey: [],
      }
      tables.set(row.table_name, table)
    }
    table.columns.set(row.column_name, {
      name: row.column_name,
      type: row.column_type,
      notNull: row.not_null,
      hasDefault: row.has_default,
    })
  }

  const constraints = await db.query<{
    constraint_name: string
    kind: string
    table_name: string
    foreign_table: string | null
    columns: string[]
    foreign_columns: string[]
  }>(
    `select con.conname as constraint_name, con.contype::text as kind, src.relname as table_name,
            tgt.relname as foreign_table,
            array(select a.attname from unnest(con.conkey) with ordinality k(num, ord)
                    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num
                   order by k.ord)::text[] as columns,
            array(select a.attname from unnest(coalesce(con.confkey, '{}')) with ordinality k(num, ord)
                    join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num
                   order by k.ord)::text[] as foreign_columns
       from pg_constraint con
       join pg_class src on src.oid = con.conrelid
       join pg_namespace sn on sn.oid = src.relnamespace
       left join pg_class tgt on tgt.oid = con.confrelid
       left join pg_namespace tn on tn.oid = tgt.relnamespace
      where sn.nspname = $1 and con.contype in ('p', 'f')
        and (con.contype = 'p' or tn.nspname = $1)
      order by con.conname`,
    [EXPOSED_SCHEMA],
  )
  const foreignKeys: ForeignKey[] = []
  for (const row of constraints.rows) {
    if (row.kind === 'p') {
      const table = tables.get(row.table_name)
      if (table) table.primaryKey = row.columns
    } else if (row.foreign_table) {
      foreignKeys.push({
        constraint: row.constraint_name,
        table: row.table_name,
        columns: row.columns,
        foreignTable: row.foreign_table,
        foreignColumns: row.foreign_columns,
      })
    }
  }

  const procs = await db.query<{
    name: string
    arg_names: string[] | null
    arg_modes: string[] | null
    arg_types: string[]
    all_arg_types: string[] | null
    n_args: number
    n_defaults: number
    return_type: string
    returns_set: boolean
    return_kind: string
    volatility: string
  }>(
    `select p.proname as name, p.proargnames::text[] as arg_names, p.proargmodes::text[] as arg_modes,
            array(select format_type(t, null) from unnest(p.proargtypes) with ordinality a(t, ord) order by a.ord)::text[] as arg_types,
            case when p.proallargtypes is null then null else
              array(select format_type(t, null) from unnest(p.proallargtypes) with ordinality a(t, ord) order by a.ord)::text[]
            end as all_arg_types,
            p.pronargs::int as n_args, p.pronargdefaults::int as n_defaults,
            format_type(p.prorettype, null) as return_type, p.proretset as returns_set,
            t.typtype::text as return_kind, p.provolatile::text as volatility
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type t on t.oid = p.prorettype
      where n.nspname = $1 and p.prokind = 'f'
        and t.typname not in ('trigger', 'event_trigger')`,
    [EXPOSED_SCHEMA],
  )
  const functions = new Map<string, FunctionInfo[]>()
  for (const row of procs.rows) {
    // proargnames also lists OUT/TABLE columns; proargtypes only the input arguments, in order.
    const inputNames = (row.arg_names ?? []).filter((_, i) => {
      const mode = row.arg_modes?.[i] ?? 'i'
      return mode === 'i' || mode === 'b' || mode === 'v'
    })
    const firstDefault = row.n_args - row.n_defaults
    const args = row.arg_types.map((type, i) => ({
      name: inputNames[i] ?? '',
      type,
      hasDefault: i >= firstDefault,
    }))
    const outColumns = (row.arg_modes ?? []).flatMap((mode, i) =>
      mode === 'o' || mode === 't'
        ? [{ name: row.arg_names?.[i] ?? `column${i + 1}`, type: row.all_arg_types?.[i] ?? 'text' }]
        : [],
    )
    const info: FunctionInfo = {
      name: row.name,
      args,
      returnType: row.return_type,
      returnsSet: row.returns_set,
      returnsRows: row.return_kind === 'c' || row.return_type === 'record',
      returnsVoid: row.return_type === 'void',
      outColumns,
      volatility:
        row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile',
    }
    functions.set(row.name, [...(functions.get(row.name) ?? []), info])
  }

  return { tables, foreignKeys, functions }
}
