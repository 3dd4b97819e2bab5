// Turns a parsed PostgREST request into one parameterised SQL statement, the way PostgREST does:
// the rows are shaped into JSON by Postgres itself (json_agg / row_to_json), embedded resources
// become lateral subqueries joined through the foreign keys in the schema cache (many-to-one →
// object or null, one-to-many → array). Every identifier is checked against the schema cache and
// quoted; every value is a bind parameter that Postgres types from its context.
import { PostgrestError, parseError, unknownColumn, unknownTable } from './postgrest-errors.ts'
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

class Statement {
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

export function buildRead(
  cache: SchemaCache,
  tableName: string,
  request: ReadRequest,
  shape: ReadShape,
): BuiltRead {
  const table = findTable(cache, tableName)
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
  const rows = `select ${resource.columns.join(', ') || 'null'} from ${qualified(table.name)} as ${root}${resource.joins.join('')}${whereSql}${orderSql(
    table,
    root,
    rootOptions.order,
  )}${pagingSql(stmt, rootOptions)}`
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
      sql: `select count(*)::int as total from ${qualified(table.name)} as ${countAlias}${where.length ? ` where ${where.join(' and ')}` : ''}`,
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

export interface BuiltRpc extends BuiltStatement {
  fn: FunctionInfo
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
  if (type.endsWith('[]') && Array.isArray(value)) return pgArrayLiteral(value)
  return valueText(value)
}

export function buildRpc(
  cache: SchemaCache,
  name: string,
  args: Record<string, unknown>,
): BuiltRpc {
  const given = Object.keys(args)
  const overloads = cache.functions.get(name) ?? []
  const fn = overloads.find((candidate) => {
    const names = new Set(candidate.args.map((a) => a.name))
    return (
      given.every((g) => names.has(g)) &&
      candidate.args.every((a) => a.hasDefault || given.includes(a.name))
    )
  })
  if (!fn) {
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
  const stmt = new Statement()
  const argSql = fn.args
    .filter((a) => given.includes(a.name))
    .map((a) => `${quoteIdent(a.name)} := ${stmt.param(argValue(a.type, args[a.name]))}::${a.type}`)
  const call = `${qualified(fn.name)}(${argSql.join(', ')})`
  let sql: string
  if (fn.returnsVoid) sql = `select ${call}`
  else if (fn.returnsSet)
    sql = `select coalesce(json_agg(_postgrest_t), '[]'::json)::text as body from ${call} as _postgrest_t`
  else if (fn.returnsRows)
    sql = `select row_to_json(_postgrest_t)::text as body from ${call} as _postgrest_t`
  else sql = `select to_json(${call})::text as body`
  return { sql, params: stmt.params, fn }
}

// update / delete ---------------------------------------------------------------------------------

export interface BuiltWrite extends BuiltStatement {
  /** The statement yields `body` (JSON text, when representation was asked for) and `row_count`. */
  returnsBody: boolean
}

function writeValue(value: unknown): unknown {
  if (value === null || value === undefined) return null
  return valueText(value)
}

/**
 * PATCH and DELETE: the root filters select the rows; with `return=representation` the changed
 * rows are shaped like a read (including embeds) from the statement's RETURNING.
 */
export function buildWrite(
  cache: SchemaCache,
  tableName: string,
  request: ReadRequest,
  change: { kind: 'update'; values: Record<string, unknown> } | { kind: 'delete' },
  shape: { representation: boolean; single: boolean; stripNulls: boolean },
): BuiltWrite {
  const table = findTable(cache, tableName)
  const stmt = new Statement()
  const target = stmt.alias('t')
  const where = optionsFor(request, '').conditions.map((c) => conditionSql(stmt, table, target, c))
  const whereSql = where.length ? ` where ${where.join(' and ')}` : ''
  let write: string
  if (change.kind === 'update') {
    const entries = Object.entries(change.values)
    if (entries.length === 0) throw new PostgrestError(400, 'PGRST102', 'Empty or invalid json')
    const sets = entries.map(([column, value]) => {
      if (!table.columns.has(column)) {
        throw new PostgrestError(
          400,
          'PGRST204',
          `Could not find the '${column}' column of '${table.name}' in the schema cache`,
        )
      }
      return `${quoteIdent(column)} = ${stmt.param(writeValue(value))}`
    })
    write = `update ${qualified(table.name)} as ${target} set ${sets.join(', ')}${whereSql} returning ${target}.*`
  } else {
    write = `delete from ${qualified(table.name)} as ${target}${whereSql} returning ${target}.*`
  }
  if (!shape.representation) {
    return {
      sql: `with _postgrest_w as (${write}) select null::text as body, count(*)::int as row_count from _postgrest_w`,
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
  const rows = `select ${resource.columns.join(', ') || 'null'} from _postgrest_w as ${alias}${resource.joins.join('')}`
  return {
    sql: `with _postgrest_w as (${write}) select (${body})::text as body, count(*)::int as row_count from (${rows}) as _postgrest_t`,
    params: stmt.params,
    returnsBody: true,
  }
}
