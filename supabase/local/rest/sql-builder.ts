// Turns a parsed PostgREST request into one parameterised SQL statement, the way PostgREST does:
// the rows are shaped into JSON by Postgres itself (json_agg / row_to_json), embedded resources
// become lateral subqueries joined through the foreign keys in the schema cache (many-to-one →
// object or null, one-to-many → array). Every identifier is checked against the schema cache and
// quoted; every value is a bind parameter that Postgres types from its context.
import {
  PostgrestError,
  parseError,
  unknownColumn,
  unknownTable,
} from '../request/postgrest-errors.ts'
import type {
  Condition,
  EmbedItem,
  OrderTerm,
  ReadRequest,
  ResourceOptions,
  SelectItem,
} from './query-parser.ts'
import {
  EXPOSED_SCHEMA,
  type ForeignKey,
  type FunctionInfo,
  type SchemaCache,
  type TableInfo,
} from './schema-cache.ts'

export interface BuiltStatement {
  sql: string
  params: unknown[]
}

export interface BuiltRead {
  /** One row: `body` (JSON text) and `row_count`. */
  read: BuiltStatement
  /** One row: `total`, when an exact count was asked for. */
  count: BuiltStatement | null
}

export interface ReadShape {
  count: boolean
  single: boolean
  stripNulls: boolean
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`
const qualified = (table: string): string => `${quoteIdent(EXPOSED_SCHEMA)}.${quoteIdent(table)}`

export class Statement {
  readonly params: unknown[] = []
  private aliases = 0

  param(value: unknown): string {
    this.params.push(value)
    return `$${this.params.length}`
  }

  alias(prefix: string): string {
    return quoteIdent(`${prefix}${this.aliases++}`)
  }
}

export function findTable(cache: SchemaCache, name: string): TableInfo {
  const table = cache.tables.get(name)
  if (table) return table
  const suggestion = [...cache.tables.keys()].find((t) => t.includes(name) || name.includes(t))
  throw unknownTable(name, suggestion)
}

function columnRef(table: TableInfo, alias: string, column: string): string {
  if (!table.columns.has(column)) throw unknownColumn(table.name, column)
  return `${alias}.${quoteIdent(column)}`
}

// relationships -----------------------------------------------------------------------------------

interface Relationship {
  toOne: boolean
  target: TableInfo
  foreignKey: ForeignKey
}

function resolveRelationship(
  cache: SchemaCache,
  parent: TableInfo,
  embed: EmbedItem,
): Relationship {
  const candidates: Relationship[] = []
  const target = cache.tables.get(embed.relation)
  if (target) {
    for (const fk of cache.foreignKeys) {
      if (fk.table === parent.name && fk.foreignTable === target.name)
        candidates.push({ toOne: true, target, foreignKey: fk })
      if (fk.table === target.name && fk.foreignTable === parent.name)
        candidates.push({
          toOne: false,
          target: parent === target ? parent : target,
          foreignKey: fk,
        })
    }
  } else {
    // `brand_id(*)` or `products_brand_id_fkey(*)`: a many-to-one through the parent's own key.
    for (const fk of cache.foreignKeys) {
      if (fk.table !== parent.name) continue
      if (
        fk.constraint === embed.relation ||
        (fk.columns.length === 1 && fk.columns[0] === embed.relation)
      ) {
        const foreign = cache.tables.get(fk.foreignTable)
        if (foreign) candidates.push({ toOne: true, target: foreign, foreignKey: fk })
      }
    }
  }
  const hinted = embed.hint
    ? candidates.filter(
        (c) =>
          c.foreignKey.constraint === embed.hint ||
          (c.foreignKey.columns.length === 1 && c.foreignKey.columns[0] === embed.hint) ||
          c.target.name === embed.hint,
      )
    : candidates
  if (hinted.length === 0) {
    throw new PostgrestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${embed.relation}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${embed.relation}'${
        embed.hint ? ` using the hint '${embed.hint}'` : ''
      } in the schema '${EXPOSED_SCHEMA}', but no matches were found.`,
    )
  }
  if (hinted.length > 1) {
    throw new PostgrestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent.name}' and '${embed.relation}'`,
      hinted
        .map((c) => `${c.foreignKey.constraint} (${c.toOne ? 'many-to-one' : 'one-to-many'})`)
        .join(', '),
      `Try changing '${embed.relation}' to one of the following: ${hinted
        .map((c) => `'${embed.relation}!${c.foreignKey.constraint}'`)
        .join(', ')}. Find the desired relationship in the 'details' key.`,
    )
  }
  return hinted[0]!
}

/** The join condition between an embedded child (alias `child`) and its parent (alias `parent`). */
function joinCondition(rel: Relationship, parentAlias: string, childAlias: string): string {
  const fk = rel.foreignKey
  return fk.columns
    .map((column, i) => {
      const foreign = fk.foreignColumns[i]!
      return rel.toOne
        ? `${childAlias}.${quoteIdent(foreign)} = ${parentAlias}.${quoteIdent(column)}`
        : `${childAlias}.${quoteIdent(column)} = ${parentAlias}.${quoteIdent(foreign)}`
    })
    .join(' and ')
}

// conditions --------------------------------------------------------------------------------------

function conditionSql(
  stmt: Statement,
  table: TableInfo,
  alias: string,
  condition: Condition,
): string {
  let sql: string
  if (condition.kind === 'logic') {
    const parts = condition.conditions.map((c) => conditionSql(stmt, table, alias, c))
    sql =
      parts.length === 0
        ? 'true'
        : `(${parts.join(condition.operator === 'and' ? ' and ' : ' or ')})`
  } else {
    const column = columnRef(table, alias, condition.column)
    const value = condition.value
    switch (condition.operator) {
      case 'eq':
      case 'neq':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const op = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[
          condition.operator
        ]
        sql = `${column} ${op} ${stmt.param(value)}`
        break
      }
      case 'like':
      case 'ilike':
        sql = `${column}::text ${condition.operator} ${stmt.param(String(value).replace(/\*/g, '%'))}`
        break
      case 'is': {
        const keyword = {
          null: 'null',
          not_null: 'not null',
          true: 'true',
          false: 'false',
          unknown: 'unknown',
        }[String(value).toLowerCase()]
        if (!keyword)
          throw parseError(
            `"failed to parse filter (is.${String(value)})"`,
            'is. expects null, not_null, true, false or unknown',
          )
        sql = `${column} is ${keyword}`
        break
      }
      case 'in': {
        const list = Array.isArray(value) ? value : [value]
        sql =
          list.length === 0
            ? 'false'
            : `${column} in (${list.map((v) => stmt.param(v)).join(', ')})`
        break
      }
      case 'isdistinct':
        sql = `${column} is distinct from ${stmt.param(value)}`
        break
      case 'match':
      case 'imatch':
        sql = `${column}::text ${condition.operator === 'match' ? '~' : '~*'} ${stmt.param(value)}`
        break
    }
  }
  return condition.negate ? `not (${sql})` : sql
}

function orderSql(table: TableInfo, alias: string, order: OrderTerm[]): string {
  if (order.length === 0) return ''
  const terms = order.map((term) => {
    let sql = columnRef(table, alias, term.column)
    if (term.direction) sql += ` ${term.direction}`
    if (term.nulls) sql += ` nulls ${term.nulls}`
    return sql
  })
  return ` order by ${terms.join(', ')}`
}

function pagingSql(stmt: Statement, options: ResourceOptions): string {
  let sql = ''
  if (options.limit !== null) sql += ` limit ${stmt.param(options.limit)}`
  if (options.offset !== null) sql += ` offset ${stmt.param(options.offset)}`
  return sql
}

// select ------------------------------------------------------------------------------------------

interface ResourceSql {
  /** `expr as "key"` items of the select list. */
  columns: string[]
  /** Lateral joins that produce the embedded resources. */
  joins: string[]
}

const optionsFor = (request: ReadRequest, path: string): ResourceOptions =>
  request.options.get(path) ?? { conditions: [], order: [], limit: null, offset: null }

const childPath = (path: string, key: string): string => (path ? `${path}.${key}` : key)

function embedKey(item: EmbedItem): string {
  return item.alias ?? item.relation
}

/** Filters of a resource and, for each `!inner` embed below it, an exists() on that embed. */
function whereFor(
  stmt: Statement,
  cache: SchemaCache,
  request: ReadRequest,
  table: TableInfo,
  alias: string,
  items: SelectItem[],
  path: string,
): string[] {
  const where = optionsFor(request, path).conditions.map((c) => conditionSql(stmt, table, alias, c))
  for (const item of items) {
    if (item.kind !== 'embed' || !item.inner) continue
    const rel = resolveRelationship(cache, table, item)
    const childAlias = stmt.alias('i')
    const childWhere = [
      joinCondition(rel, alias, childAlias),
      ...whereFor(
        stmt,
        cache,
        request,
        rel.target,
        childAlias,
        item.select,
        childPath(path, embedKey(item)),
      ),
    ]
    where.push(
      `exists (select 1 from ${qualified(rel.target.name)} as ${childAlias} where ${childWhere.join(' and ')})`,
    )
  }
  return where
}

function resourceSql(
  stmt: Statement,
  cache: SchemaCache,
  request: ReadRequest,
  table: TableInfo,
  alias: string,
  items: SelectItem[],
  path: string,
): ResourceSql {
  const columns: string[] = []
  const joins: string[] = []
  for (const item of items) {
    if (item.kind === 'star') {
      for (const column of table.columns.keys()) columns.push(`${alias}.${quoteIdent(column)}`)
    } else if (item.kind === 'column') {
      const ref = columnRef(table, alias, item.name)
      const key = item.alias ?? item.name
      columns.push(`${ref}${item.cast ? `::${item.cast}` : ''} as ${quoteIdent(key)}`)
    } else {
      const rel = resolveRelationship(cache, table, item)
      const key = embedKey(item)
      const path2 = childPath(path, key)
      if (path !== '' && !rel.toOne && request.nestedToMany === false) {
        throw new PostgrestError(
          400,
          'PGRST100',
          `Request too large: '${path2}' embeds a list inside the embedded resource '${path}'`,
          'Only the requested rows themselves may embed lists of related rows; ask for them in a separate request',
        )
      }
      const childAlias = stmt.alias('t')
      const joinAlias = stmt.alias('e')
      const child = resourceSql(stmt, cache, request, rel.target, childAlias, item.select, path2)
      const childOptions = optionsFor(request, path2)
      // An `!inner` embed also filters the parent: see whereFor().
      const where = [
        joinCondition(rel, alias, childAlias),
        ...whereFor(stmt, cache, request, rel.target, childAlias, item.select, path2),
      ]
      const inner = `select ${child.columns.join(', ') || 'null'} from ${qualified(rel.target.name)} as ${childAlias}${child.joins.join('')} where ${where.join(' and ')}`
      if (rel.toOne) {
        joins.push(` left join lateral (${inner} limit 1) as ${joinAlias} on true`)
        columns.push(`row_to_json(${joinAlias}.*) as ${quoteIdent(key)}`)
      } else {
        const rowsAlias = stmt.alias('r')
        const ordered = `${inner}${orderSql(rel.target, childAlias, childOptions.order)}${pagingSql(stmt, childOptions)}`
        joins.push(
          ` left join lateral (select coalesce(json_agg(${rowsAlias}), '[]'::json) as body from (${ordered}) as ${rowsAlias}) as ${joinAlias} on true`,
        )
        columns.push(`${joinAlias}.body as ${quoteIdent(key)}`)
      }
    }
  }
  return { columns, joins }
}

/**
 * What a read selects from: a table of the schema cache, or (for rpc) a function call whose rows
 * have the shape of `table`. `from` renders the FROM item inside a given statement, so its
 * parameters are numbered with the rest.
 */
export interface ReadSource {
  table: TableInfo
  from: (stmt: Statement) => string
}

export const tableSource = (table: TableInfo): ReadSource => ({
  table,
  from: () => qualified(table.name),
})

export function buildRead(
  cache: SchemaCache,
  tableName: string | ReadSource,
  request: ReadRequest,
  shape: ReadShape,
): BuiltRead {
  const source =
    typeof tableName === 'string' ? tableSource(findTable(cache, tableName)) : tableName
  const table = source.table
  for (const path of request.options.keys()) {
    if (path !== '' && !pathExists(request.select, path.split('.'))) {
      throw parseError(
        `"failed to parse filter or order on '${path}'"`,
        `'${path}' is not an embedded resource in this request`,
      )
    }
  }

  const stmt = new Statement()
  const root = stmt.alias('t')
  const rootOptions = optionsFor(request, '')
  const resource = resourceSql(stmt, cache, request, table, root, request.select, '')
  const where = whereFor(stmt, cache, request, table, root, request.select, '')
  const whereSql = where.length ? ` where ${where.join(' and ')}` : ''
  const order = orderSql(table, root, rootOptions.order)
  // Filter, order and page the root rows first, then embed: otherwise Postgres computes every
  // embedded resource for every matching row before ORDER BY ... LIMIT keeps a page of them.
  const page = `select ${root}.* from ${source.from(stmt)} as ${root}${whereSql}${order}${pagingSql(stmt, rootOptions)}`
  const rows = `select ${resource.columns.join(', ') || 'null'} from (${page}) as ${root}${resource.joins.join('')}${order}`
  let body = shape.single
    ? `json_agg(_postgrest_t) -> 0`
    : `coalesce(json_agg(_postgrest_t), '[]'::json)`
  if (shape.stripNulls) body = `json_strip_nulls(${body})`
  const read = {
    sql: `select (${body})::text as body, count(*)::int as row_count from (${rows}) as _postgrest_t`,
    params: stmt.params,
  }

  let count: BuiltStatement | null = null
  if (shape.count) {
    const countStmt = new Statement()
    const countAlias = countStmt.alias('t')
    const where = whereFor(countStmt, cache, request, table, countAlias, request.select, '')
    count = {
      sql: `select count(*)::int as total from ${source.from(countStmt)} as ${countAlias}${where.length ? ` where ${where.join(' and ')}` : ''}`,
      params: countStmt.params,
    }
  }
  return { read, count }
}

function pathExists(items: SelectItem[], path: string[]): boolean {
  const [head, ...rest] = path
  const embed = items.find((i): i is EmbedItem => i.kind === 'embed' && embedKey(i) === head)
  if (!embed) return false
  return rest.length === 0 || pathExists(embed.select, rest)
}

// rpc ---------------------------------------------------------------------------------------------

export interface BuiltRpc {
  fn: FunctionInfo
  /** For functions returning rows: a read over the call, with select, filters, order and paging. */
  read: BuiltRead | null
  /** For scalar and void functions: one row with `body` (JSON text). */
  call: BuiltStatement | null
}

/** A JSON value as Postgres input text: scalars as themselves, objects and arrays as JSON. */
function valueText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value
    case 'number':
    case 'boolean':
    case 'bigint':
      return value.toString()
    default:
      return JSON.stringify(value)
  }
}

function pgArrayLiteral(values: unknown[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL'
    if (Array.isArray(v)) return pgArrayLiteral(v)
    const text = valueText(v)
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
  })
  return `{${items.join(',')}}`
}

function argValue(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null
  // json/jsonb arguments take any JSON value, including a bare string, as JSON.
  if (type === 'json' || type === 'jsonb') return JSON.stringify(value)
  if (type.endsWith('[]') && Array.isArray(value)) return pgArrayLiteral(value)
  return valueText(value)
}

/** The overload PostgREST would call for these argument names, or a PGRST202 error. */
export function findFunction(
  cache: SchemaCache,
  name: string,
  given: string[],
  singleJsonBody: boolean,
): FunctionInfo {
  const overloads = cache.functions.get(name) ?? []
  const fn =
    overloads.find((candidate) => {
      const names = new Set(candidate.args.map((a) => a.name))
      return (
        given.every((g) => names.has(g)) &&
        candidate.args.every((a) => a.hasDefault || given.includes(a.name))
      )
    }) ??
    // A function with one unnamed json/jsonb parameter takes the whole body.
    (singleJsonBody
      ? overloads.find(
          (c) => c.args.length === 1 && c.args[0]!.name === '' && /^jsonb?$/.test(c.args[0]!.type),
        )
      : undefined)
  if (fn) return fn
  const listed = [...given].sort().join(', ')
  throw new PostgrestError(
    404,
    'PGRST202',
    `Could not find the function ${EXPOSED_SCHEMA}.${name}${given.length ? `(${listed})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${EXPOSED_SCHEMA}.${name} ${
      given.length ? `with parameters ${listed}` : 'without parameters'
    } or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    overloads.length
      ? `Perhaps you meant to call the function ${EXPOSED_SCHEMA}.${name}(${overloads[0]!.args.map((a) => a.name).join(', ')})`
      : null,
  )
}

/** The rows a function returns, as a table the read builder can filter and embed from. */
function resultTable(cache: SchemaCache, fn: FunctionInfo): TableInfo | null {
  if (!fn.returnsRows) return null
  const named = cache.tables.get(fn.returnType.replace(/^public\./, '').replace(/^"|"$/g, ''))
  if (named) return named
  if (fn.outColumns.length === 0) return null
  return {
    name: fn.name,
    kind: 'view',
    columns: new Map(
      fn.outColumns.map((c) => [
        c.name,
        { name: c.name, type: c.type, notNull: false, hasDefault: false },
      ]),
    ),
    primaryKey: [],
  }
}

export function buildRpc(
  cache: SchemaCache,
  fn: FunctionInfo,
  args: Record<string, unknown>,
  request: ReadRequest,
  shape: ReadShape,
): BuiltRpc {
  const callSql = (stmt: Statement): string => {
    if (fn.args.length === 1 && fn.args[0]!.name === '') {
      return `${qualified(fn.name)}(${stmt.param(JSON.stringify(args))}::${fn.args[0]!.type})`
    }
    const argSql = fn.args
      .filter((a) => a.name in args)
      .map(
        // Sent as text and cast by the database: a value the type does not take ("x" for a
        // boolean) is then its 22P02 (400), not a failure of the driver's own encoder (500).
        (a) =>
          `${quoteIdent(a.name)} := ${stmt.param(argValue(a.type, args[a.name]))}::text::${a.type}`,
      )
    return `${qualified(fn.name)}(${argSql.join(', ')})`
  }
  const table = resultTable(cache, fn)
  if (table) {
    const source: ReadSource = { table, from: callSql }
    const read = buildRead(cache, source, request, shape)
    if (!fn.returnsSet) {
      // A function returning one row answers an object, not an array (PostgREST's behaviour).
      read.read.sql = read.read.sql.replace(
        /^select \(coalesce\(json_agg\(_postgrest_t\), '\[\]'::json\)\)/,
        'select (json_agg(_postgrest_t) -> 0)',
      )
    }
    return { fn, read, call: null }
  }
  const stmt = new Statement()
  const call = callSql(stmt)
  let sql: string
  if (fn.returnsVoid) sql = `select ${call}, null::text as body`
  else if (fn.returnsSet) {
    const body = shape.single
      ? `json_agg(_postgrest_t) -> 0`
      : `coalesce(json_agg(_postgrest_t), '[]'::json)`
    sql = `select (${body})::text as body, count(*)::int as row_count from ${call} as _postgrest_t`
  } else sql = `select to_json(${call})::text as body`
  return { fn, read: null, call: { sql, params: stmt.params } }
}

// writes ------------------------------------------------------------------------------------------

export interface BuiltWrite extends BuiltStatement {
  /** The statement yields `body` (JSON text, when representation was asked for) and `row_count`. */
  returnsBody: boolean
}

export interface WriteShape {
  representation: boolean
  single: boolean
  stripNulls: boolean
}

const unknownWriteColumn = (table: TableInfo, column: string): PostgrestError =>
  new PostgrestError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of '${table.name}' in the schema cache`,
  )

/**
 * Wraps the data-modifying CTE `_postgrest_w` (which returns the written rows) into the final
 * statement: a count, or with `return=representation` the rows shaped like a read, embeds included.
 */
function finishWrite(
  stmt: Statement,
  cache: SchemaCache,
  request: ReadRequest,
  table: TableInfo,
  ctes: string,
  shape: WriteShape,
): BuiltWrite {
  if (!shape.representation) {
    return {
      sql: `with ${ctes} select null::text as body, count(*)::int as row_count from _postgrest_w`,
      params: stmt.params,
      returnsBody: false,
    }
  }
  const alias = stmt.alias('t')
  const resource = resourceSql(stmt, cache, request, table, alias, request.select, '')
  let body = shape.single
    ? `json_agg(_postgrest_t) -> 0`
    : `coalesce(json_agg(_postgrest_t), '[]'::json)`
  if (shape.stripNulls) body = `json_strip_nulls(${body})`
  const order = orderSql(table, alias, optionsFor(request, '').order)
  const rows = `select ${resource.columns.join(', ') || 'null'} from _postgrest_w as ${alias}${resource.joins.join('')}${order}`
  return {
    sql: `with ${ctes} select (${body})::text as body, count(*)::int as row_count from (${rows}) as _postgrest_t`,
    params: stmt.params,
    returnsBody: true,
  }
}

/**
 * PATCH and DELETE: the root filters select the rows; the new values travel as one JSON object
 * that Postgres types through the table's own row type (jsonb_populate_record), as PostgREST does.
 */
export function buildWrite(
  cache: SchemaCache,
  tableName: string,
  request: ReadRequest,
  change: { kind: 'update'; values: Record<string, unknown> } | { kind: 'delete' },
  shape: WriteShape,
): BuiltWrite {
  const table = findTable(cache, tableName)
  const stmt = new Statement()
  const target = stmt.alias('t')
  const where = optionsFor(request, '').conditions.map((c) => conditionSql(stmt, table, target, c))
  let write: string
  if (change.kind === 'update') {
    const columns = Object.keys(change.values)
    if (columns.length === 0) {
      // PostgREST answers an empty PATCH without touching any row.
      return {
        sql: `select ${shape.representation ? `'[]'::text` : 'null::text'} as body, 0 as row_count`,
        params: [],
        returnsBody: shape.representation,
      }
    }
    for (const column of columns)
      if (!table.columns.has(column)) throw unknownWriteColumn(table, column)
    const body = stmt.param(JSON.stringify(change.values))
    const sets = columns.map((c) => `${quoteIdent(c)} = _postgrest_b.${quoteIdent(c)}`)
    where.unshift('true')
    write = `update ${qualified(table.name)} as ${target} set ${sets.join(', ')} from jsonb_populate_record(null::${qualified(table.name)}, ${body}::jsonb) as _postgrest_b where ${where.join(' and ')} returning ${target}.*`
  } else {
    const whereSql = where.length ? ` where ${where.join(' and ')}` : ''
    write = `delete from ${qualified(table.name)} as ${target}${whereSql} returning ${target}.*`
  }
  return finishWrite(stmt, cache, request, table, `_postgrest_w as (${write})`, shape)
}

export interface InsertOptions extends WriteShape {
  /** `columns=`: which keys of the body to insert; default: every key present in the body. */
  columns: string[] | null
  /** Upsert: `Prefer: resolution=merge-duplicates|ignore-duplicates`. */
  resolution: 'merge' | 'ignore' | null
  /** `on_conflict=`; default: the primary key. */
  onConflict: string[] | null
  /** `Prefer: missing=default`: absent keys take the column default instead of null. */
  missingDefault: boolean
}

/**
 * POST (insert and upsert). Rows travel as one JSON array typed by the table's row type
 * (jsonb_populate_recordset), so one statement inserts any number of rows with one parameter.
 */
export function buildInsert(
  cache: SchemaCache,
  tableName: string,
  request: ReadRequest,
  rows: Record<string, unknown>[],
  options: InsertOptions,
): BuiltWrite {
  const table = findTable(cache, tableName)
  const columns = options.columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))]
  for (const column of columns)
    if (!table.columns.has(column)) throw unknownWriteColumn(table, column)
  if (rows.length === 0) {
    return {
      sql: `select ${options.representation ? `'[]'::text` : 'null::text'} as body, 0 as row_count`,
      params: [],
      returnsBody: options.representation,
    }
  }

  let conflict = ''
  if (options.resolution) {
    const keys = options.onConflict ?? table.primaryKey
    if (keys.length === 0) {
      throw new PostgrestError(
        400,
        'PGRST103',
        `Cannot upsert into '${table.name}': it has no primary key and no on_conflict was given`,
      )
    }
    for (const key of keys) if (!table.columns.has(key)) throw unknownColumn(table.name, key)
    const target = keys.map(quoteIdent).join(', ')
    if (options.resolution === 'ignore') conflict = ` on conflict (${target}) do nothing`
    else {
      const sets = (columns.length ? columns : keys).map(
        (c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`,
      )
      conflict = ` on conflict (${target}) do update set ${sets.join(', ')}`
    }
  }

  // With missing=default each distinct set of keys becomes its own INSERT, naming only the keys
  // present, so Postgres fills the rest from the column defaults.
  const groups = new Map<string, { columns: string[]; rows: Record<string, unknown>[] }>()
  for (const row of rows) {
    const present = options.missingDefault ? columns.filter((c) => c in row) : columns
    const key = present.join('\u0000')
    const group = groups.get(key) ?? { columns: present, rows: [] }
    group.rows.push(row)
    groups.set(key, group)
  }

  const stmt = new Statement()
  const rowType = `null::${qualified(table.name)}`
  const inserts = [...groups.values()].map((group) => {
    const target = stmt.alias('t')
    const into = `insert into ${qualified(table.name)} as ${target}`
    if (group.columns.length === 0) {
      const count = stmt.param(group.rows.length)
      return `${into} select from generate_series(1, ${count}::int)${conflict} returning ${target}.*`
    }
    const list = group.columns.map(quoteIdent).join(', ')
    const body = stmt.param(JSON.stringify(group.rows))
    return `${into} (${list}) select ${list} from jsonb_populate_recordset(${rowType}, ${body}::jsonb)${conflict} returning ${target}.*`
  })
  const ctes =
    inserts.length === 1
      ? `_postgrest_w as (${inserts[0]})`
      : `${inserts.map((sql, i) => `_postgrest_w${i} as (${sql})`).join(', ')}, _postgrest_w as (${inserts
          .map((_, i) => `select * from _postgrest_w${i}`)
          .join(' union all ')})`
  return finishWrite(stmt, cache, request, table, ctes, options)
}
