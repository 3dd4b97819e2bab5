// Parses PostgREST's URL grammar (the part supabase-js produces) into a plain request tree:
// the select list with embedded resources, filters and logic trees, order, limit and offset,
// each attached to the resource they address ("product_media.order=display_order" orders the
// embedded media). Knows nothing about the schema; the SQL builder validates names.
//
// Every input is hostile: the grammar is recursive (embeds in embeds, logic trees in logic trees),
// so nesting is checked before any recursion, and the size of a request — parameters, embeds,
// conditions, pattern filters, `in` lists, values — is capped (REQUEST_LIMITS) so that no single
// request can hold the single-connection database for long (docs/decisions/027-request-limits.md).
// Anything over a limit is PostgREST's PGRST100 parse error, a 400 with a message naming the limit.
import { parseError } from '../request/postgrest-errors.ts'

/**
 * What one request may ask for. Far above what the shop's clients send (their reads name a few
 * columns and filters, embed one level, and page by 1,000 at most); each bounds a way to make
 * one statement slow: nesting (recursion), conditions times rows, pattern matching (like, ilike,
 * regular expressions), long values and lists.
 */
export const REQUEST_LIMITS = {
  /** Query parameters per request. */
  params: 100,
  /** Nesting of embeds in select=, and of and()/or() in logic trees. */
  depth: 6,
  /** Embedded resources in one select=. */
  embeds: 16,
  /** Items in one select= (columns, stars and embeds). */
  selectItems: 200,
  /** Filter conditions in the whole request, logic trees' branches included. */
  conditions: 100,
  /** like, ilike, match and imatch conditions (each runs over every candidate row's text). */
  patterns: 4,
  /** Wildcards (* % _) in one like or ilike pattern: each multiplies the work per row. */
  wildcards: 4,
  /** Characters in one filter value (or one `in` item); patterns have their own cap. */
  valueLength: 4096,
  /** Characters in a like, ilike, match or imatch pattern. */
  patternLength: 64,
  /** Items in one `in` list. */
  inValues: 1000,
  /** Terms of one order=. */
  orderTerms: 16,
  /** limit= and offset= (the largest Postgres integer). */
  count: 2_147_483_647,
} as const

const overLimit = (what: string, limit: number, details: string | null = null) =>
  parseError(`Request too large: at most ${limit} ${what}`, details)

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
  /**
   * false: a to-many embed only directly under the root (the API roles' reads, whose rows could
   * otherwise multiply: every product's brand's every product's ...). Default true.
   */
  nestedToMany?: boolean
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
  if ([...params.keys()].length > REQUEST_LIMITS.params)
    throw overLimit('query parameters', REQUEST_LIMITS.params)
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
  checkConditions(options)
  return { select, options }
}

/** The request's conditions, all resources and logic trees together, within the limits. */
function checkConditions(options: Map<string, ResourceOptions>): void {
  let conditions = 0
  let patterns = 0
  // Iterative: logic trees are already bounded in depth, but there is no need to recurse.
  const pending: Condition[] = [...options.values()].flatMap((o) => o.conditions)
  while (pending.length > 0) {
    const condition = pending.pop()!
    if (condition.kind === 'logic') {
      pending.push(...condition.conditions)
      continue
    }
    conditions++
    if (PATTERN_OPERATORS.has(condition.operator)) patterns++
  }
  if (conditions > REQUEST_LIMITS.conditions)
    throw overLimit('filter conditions in a request', REQUEST_LIMITS.conditions)
  if (patterns > REQUEST_LIMITS.patterns)
    throw overLimit('like, ilike, match or imatch conditions in a request', REQUEST_LIMITS.patterns)
}

/**
 * What makes Postgres's regular expressions slow (back-references force backtracking; counted or
 * nested repetition multiplies states): `\1`…`\9`, `{`, and a quantifier after a group.
 */
const SLOW_REGEX = /\\[1-9]|\{|\)\s*[*+?]/

const PATTERN_OPERATORS: ReadonlySet<FilterOperator> = new Set(['like', 'ilike', 'match', 'imatch'])

function parseCount(name: string, value: string): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) > REQUEST_LIMITS.count)
    throw parseError(
      `"failed to parse ${name} parameter (${value.length > 40 ? `${value.slice(0, 40)}…` : value})"`,
      `${name} must be a whole number from 0 to ${REQUEST_LIMITS.count}`,
    )
  return Number(value)
}

/**
 * Whether brackets nest deeper than `max` (outside double quotes), by one pass over the text:
 * checked before the recursive parsers see it.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '\\' && quoted) i++
    else if (ch === '"') quoted = !quoted
    else if (!quoted && ch === '(') {
      if (++depth > max) return true
    } else if (!quoted && ch === ')') depth--
  }
  return false
}

// select ------------------------------------------------------------------------------------------

class Cursor {
  pos = 0
  embeds = 0
  items = 0
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
  if (nestsDeeperThan(stripped, REQUEST_LIMITS.depth))
    throw overLimit('levels of embedded resources', REQUEST_LIMITS.depth)
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
  if (++cursor.items > REQUEST_LIMITS.selectItems)
    throw overLimit('items in select', REQUEST_LIMITS.selectItems)
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
    if (++cursor.embeds > REQUEST_LIMITS.embeds)
      throw overLimit('embedded resources in select', REQUEST_LIMITS.embeds)
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
  if (operator === 'in') {
    const list = parseList(raw, expression)
    if (list.length > REQUEST_LIMITS.inValues)
      throw overLimit('values in an in. list', REQUEST_LIMITS.inValues)
    if (list.some((item) => item.length > REQUEST_LIMITS.valueLength))
      throw overLimit('characters in a filter value', REQUEST_LIMITS.valueLength)
    return { kind: 'filter', column, operator, negate, value: list }
  }
  const value = unquote ? unquoteValue(raw) : raw
  if (operator === 'like' || operator === 'ilike') {
    if ((value.match(/[*%_]/g)?.length ?? 0) > REQUEST_LIMITS.wildcards)
      throw overLimit('wildcards in a like or ilike pattern', REQUEST_LIMITS.wildcards)
  }
  if ((operator === 'match' || operator === 'imatch') && SLOW_REGEX.test(value)) {
    throw parseError(
      `"failed to parse filter (${operator}.…)"`,
      'Regular expressions with back-references, counted repetition ({n,m}) or a repeated group are refused: they can take exponential time',
    )
  }
  const cap = PATTERN_OPERATORS.has(operator)
    ? REQUEST_LIMITS.patternLength
    : REQUEST_LIMITS.valueLength
  if (value.length > cap)
    throw overLimit(
      PATTERN_OPERATORS.has(operator)
        ? 'characters in a like, ilike, match or imatch pattern'
        : 'characters in a filter value',
      cap,
    )
  return { kind: 'filter', column, operator, negate, value }
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
  if (nestsDeeperThan(text, REQUEST_LIMITS.depth))
    throw overLimit('levels of nested and/or', REQUEST_LIMITS.depth)
  return parseLogicLevel(text)
}

function parseLogicLevel(text: string): LogicCondition {
  const match = /^(not\.)?(and|or)\((.*)\)$/s.exec(text)
  if (!match) throw parseError(`"failed to parse logic tree (${text})"`)
  const conditions = splitTopLevel(match[3]!).map((part): Condition => {
    if (/^(not\.)?(and|or)\(/.test(part)) return parseLogicLevel(part)
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
  const terms = splitTopLevel(text)
  if (terms.length > REQUEST_LIMITS.orderTerms)
    throw overLimit('terms in order', REQUEST_LIMITS.orderTerms)
  return terms.map((term) => {
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
