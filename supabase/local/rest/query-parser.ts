// Parses PostgREST's URL grammar (the part supabase-js produces) into a plain request tree:
// the select list with embedded resources, filters and logic trees, order, limit and offset,
// each attached to the resource they address ("product_media.order=display_order" orders the
// embedded media). Knows nothing about the schema; the SQL builder validates names.
import { parseError } from './postgrest-errors.ts'

export type SelectItem = ColumnItem | StarItem | EmbedItem

export interface ColumnItem {
  kind: 'column'
  name: string
  alias: string | null
  cast: string | null
}

export interface StarItem {
  kind: 'star'
}

export interface EmbedItem {
  kind: 'embed'
  /** A table name, or a foreign key column / constraint name of the parent. */
  relation: string
  alias: string | null
  /** `!hint` naming the foreign key (constraint or column) when the relationship is ambiguous. */
  hint: string | null
  inner: boolean
  select: SelectItem[]
}

export const FILTER_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'is',
  'in',
  'isdistinct',
  'match',
  'imatch',
] as const
export type FilterOperator = (typeof FILTER_OPERATORS)[number]

export type Condition = FilterCondition | LogicCondition

export interface FilterCondition {
  kind: 'filter'
  column: string
  operator: FilterOperator
  negate: boolean
  /** A list for `in`, a single value otherwise. */
  value: string | string[]
}

export interface LogicCondition {
  kind: 'logic'
  operator: 'and' | 'or'
  negate: boolean
  conditions: Condition[]
}

export interface OrderTerm {
  column: string
  direction: 'asc' | 'desc' | null
  nulls: 'first' | 'last' | null
}

/** Filters, order and paging for one resource in the tree ('' is the root). */
export interface ResourceOptions {
  conditions: Condition[]
  order: OrderTerm[]
  limit: number | null
  offset: number | null
}

export interface ReadRequest {
  select: SelectItem[]
  /** Keyed by embed path: '' for the root, 'product_media', 'brand.logo', ... */
  options: Map<string, ResourceOptions>
}

/** Query parameters that are not filters. */
const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict', 'apikey'])

/** Top-level parameters that never address a resource (writes' options, the gateway's key). */
export const NON_FILTER_PARAMS = new Set(['select', 'columns', 'on_conflict', 'apikey'])

/**
 * `columns=` and `on_conflict=`: a comma-separated list of column names, optionally
 * double-quoted (supabase-js quotes them: `"name","sku"`).
 */
export function parseColumnList(name: string, text: string): string[] {
  const columns = splitTopLevel(text).map((part) => unquoteValue(part.trim()))
  if (columns.some((c) => c === ''))
    throw parseError(`"failed to parse ${name} parameter (${text})"`)
  return columns
}

/** `skip`: parameters consumed elsewhere (an rpc's arguments in a GET). */
export function parseReadRequest(params: URLSearchParams, skip?: ReadonlySet<string>): ReadRequest {
  const options = new Map<string, ResourceOptions>()
  const at = (path: string): ResourceOptions => {
    let found = options.get(path)
    if (!found) {
      found = { conditions: [], order: [], limit: null, offset: null }
      options.set(path, found)
    }
    return found
  }
  at('')

  const selectParam = params.get('select')
  const select =
    selectParam === null || selectParam.trim() === ''
      ? [{ kind: 'star' as const }]
      : parseSelect(selectParam)

  for (const [key, value] of params) {
    if (NON_FILTER_PARAMS.has(key) || skip?.has(key)) continue
    const logic = /^(?:(.+)\.)?(not\.)?(and|or)$/.exec(key)
    if (logic) {
      const path = logic[1] ?? ''
      at(path).conditions.push(parseLogicTree(`${logic[2] ?? ''}${logic[3]!}${value}`))
      continue
    }
    const dot = key.lastIndexOf('.')
    const path = dot === -1 ? '' : key.slice(0, dot)
    const last = dot === -1 ? key : key.slice(dot + 1)
    if (RESERVED.has(last)) {
      const target = at(path)
      if (last === 'order') target.order = parseOrder(value)
      else if (last === 'limit') target.limit = parseCount('limit', value)
      else if (last === 'offset') target.offset = parseCount('offset', value)
      continue
    }
    at(path).conditions.push(parseFilter(last, value))
  }
  return { select, options }
}

function parseCount(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw parseError(`"failed to parse ${name} parameter (${value})"`)
  return Number(value)
}

// select ------------------------------------------------------------------------------------------

class Cursor {
  pos = 0
  constructor(readonly text: string) {}
  peek(): string | undefined {
    return this.text[this.pos]
  }
  eof(): boolean {
    return this.pos >= this.text.length
  }
  fail(what: string): never {
    throw parseError(
      `"failed to parse select parameter (${this.text})"`,
      `${what} at position ${this.pos}`,
    )
  }
}

export function parseSelect(text: string): SelectItem[] {
  // PostgREST ignores whitespace outside double quotes in select.
  let stripped = ''
  let quoted = false
  for (const ch of text) {
    if (ch === '"') quoted = !quoted
    if (quoted || !/\s/.test(ch)) stripped += ch
  }
  const cursor = new Cursor(stripped)
  const items = parseSelectList(cursor)
  if (!cursor.eof()) cursor.fail('unexpected character')
  return items
}

function parseSelectList(cursor: Cursor): SelectItem[] {
  const items: SelectItem[] = [parseSelectItem(cursor)]
  while (cursor.peek() === ',') {
    cursor.pos++
    items.push(parseSelectItem(cursor))
  }
  return items
}

function parseName(cursor: Cursor): string {
  if (cursor.peek() === '"') {
    const end = cursor.text.indexOf('"', cursor.pos + 1)
    if (end === -1) cursor.fail('unterminated quoted name')
    const name = cursor.text.slice(cursor.pos + 1, end)
    cursor.pos = end + 1
    return name
  }
  const match = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(cursor.text.slice(cursor.pos))
  if (!match) cursor.fail('expected a name')
  cursor.pos += match[0].length
  return match[0]
}

function parseSelectItem(cursor: Cursor): SelectItem {
  if (cursor.peek() === '*') {
    cursor.pos++
    return { kind: 'star' }
  }
  if (cursor.text.startsWith('...', cursor.pos))
    cursor.fail('spread embeds are not supported by the stand-in')
  let name = parseName(cursor)
  let alias: string | null = null
  if (cursor.peek() === ':' && cursor.text[cursor.pos + 1] !== ':') {
    cursor.pos++
    alias = name
    name = parseName(cursor)
  }
  if (cursor.text.startsWith('->', cursor.pos))
    cursor.fail('JSON paths are not supported by the stand-in')

  let hint: string | null = null
  let inner = false
  while (cursor.peek() === '!') {
    cursor.pos++
    const word = parseName(cursor)
    if (word === 'inner') inner = true
    else if (word === 'left') inner = false
    else hint = word
  }
  if (cursor.peek() === '(') {
    cursor.pos++
    const select = cursor.peek() === ')' ? [] : parseSelectList(cursor)
    if (cursor.peek() !== ')') cursor.fail('expected )')
    cursor.pos++
    return { kind: 'embed', relation: name, alias, hint, inner, select }
  }
  if (hint !== null || inner) cursor.fail('! is only allowed on embedded resources')

  let cast: string | null = null
  if (cursor.text.startsWith('::', cursor.pos)) {
    cursor.pos += 2
    const match = /^[A-Za-z_][A-Za-z0-9_]*(\[\])?/.exec(cursor.text.slice(cursor.pos))
    if (!match) cursor.fail('expected a type after ::')
    cast = match[0]
    cursor.pos += match[0].length
  }
  return { kind: 'column', name, alias, cast }
}

// filters -----------------------------------------------------------------------------------------

function isOperator(word: string | undefined): word is FilterOperator {
  return (FILTER_OPERATORS as readonly string[]).includes(word ?? '')
}

/** `col=[not.]op.value` as a query parameter. */
export function parseFilter(column: string, expression: string, unquote = false): FilterCondition {
  let rest = expression
  let negate = false
  if (rest.startsWith('not.')) {
    negate = true
    rest = rest.slice(4)
  }
  const dot = rest.indexOf('.')
  const operator = dot === -1 ? rest : rest.slice(0, dot)
  if (!isOperator(operator)) {
    throw parseError(
      `"failed to parse filter (${expression})" (line 1, column 1)`,
      `unknown or unsupported operator "${operator}"`,
    )
  }
  if (dot === -1) throw parseError(`"failed to parse filter (${expression})"`, 'missing value')
  const raw = rest.slice(dot + 1)
  if (operator === 'in')
    return { kind: 'filter', column, operator, negate, value: parseList(raw, expression) }
  return { kind: 'filter', column, operator, negate, value: unquote ? unquoteValue(raw) : raw }
}

function unquoteValue(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1')
  }
  return value
}

/** `(a,b,"c,d")` → ['a', 'b', 'c,d'] */
function parseList(raw: string, expression: string): string[] {
  if (!raw.startsWith('(') || !raw.endsWith(')')) {
    throw parseError(`"failed to parse filter (${expression})"`, 'in. expects a parenthesised list')
  }
  const inside = raw.slice(1, -1)
  if (inside === '') return []
  return splitTopLevel(inside).map(unquoteValue)
}

/** Splits on commas outside parentheses and double quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '\\' && quoted) {
      i++
    } else if (ch === '"') {
      quoted = !quoted
    } else if (!quoted && ch === '(') {
      depth++
    } else if (!quoted && ch === ')') {
      depth--
    } else if (!quoted && depth === 0 && ch === ',') {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** `or(a.eq.1,and(b.gt.2,c.lt.3))`, also with a leading `not.`. */
export function parseLogicTree(text: string): LogicCondition {
  const match = /^(not\.)?(and|or)\((.*)\)$/s.exec(text)
  if (!match) throw parseError(`"failed to parse logic tree (${text})"`)
  const conditions = splitTopLevel(match[3]!).map((part): Condition => {
    if (/^(not\.)?(and|or)\(/.test(part)) return parseLogicTree(part)
    const dot = part.indexOf('.')
    if (dot <= 0)
      throw parseError(`"failed to parse logic tree (${text})"`, `bad condition "${part}"`)
    return parseFilter(part.slice(0, dot), part.slice(dot + 1), true)
  })
  return {
    kind: 'logic',
    operator: match[2] as 'and' | 'or',
    negate: Boolean(match[1]),
    conditions,
  }
}

// order -------------------------------------------------------------------------------------------

export function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text).map((term) => {
    const [column, ...modifiers] = term.split('.')
    if (!column) throw parseError(`"failed to parse order (${text})"`)
    const order: OrderTerm = { column, direction: null, nulls: null }
    for (const modifier of modifiers) {
      if (modifier === 'asc' || modifier === 'desc') order.direction = modifier
      else if (modifier === 'nullsfirst') order.nulls = 'first'
      else if (modifier === 'nullslast') order.nulls = 'last'
      else throw parseError(`"failed to parse order (${text})"`, `unknown modifier "${modifier}"`)
    }
    return order
  })
}
