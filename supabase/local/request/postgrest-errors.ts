// PostgREST's error bodies and status codes, so supabase-js callers see the same `error` objects
// from the stand-in as from hosted Supabase. Postgres errors map by SQLSTATE the way PostgREST
// maps them (docs.postgrest.org "Errors"); our own PGRSTxxx codes mirror PostgREST's.

export interface PostgrestErrorBody {
  code: string
  message: string
  details: string | null
  hint: string | null
}

export class PostgrestError extends Error {
  readonly status: number
  readonly code: string
  readonly details: string | null
  readonly hint: string | null

  constructor(
    status: number,
    code: string,
    message: string,
    details: string | null = null,
    hint: string | null = null,
  ) {
    super(message)
    this.status = status
    this.code = code
    this.details = details
    this.hint = hint
  }

  toBody(): PostgrestErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint }
  }
}

export const parseError = (message: string, details: string | null = null): PostgrestError =>
  new PostgrestError(400, 'PGRST100', message, details)

export const unknownColumn = (table: string, column: string): PostgrestError =>
  new PostgrestError(400, '42703', `column ${table}.${column} does not exist`)

export const unknownTable = (table: string, suggestion?: string): PostgrestError =>
  new PostgrestError(
    404,
    'PGRST205',
    `Could not find the table 'public.${table}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table 'public.${suggestion}'` : null,
  )

interface PgErrorLike {
  code: string
  message: string
  detail?: string
  hint?: string
}

function isPgError(error: unknown): error is PgErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code)
  )
}

/** PostgREST's SQLSTATE → HTTP status table. */
export function statusForSqlState(code: string, role: string): number {
  // RAISE ... USING ERRCODE = 'PT402' picks the HTTP status itself (PostgREST's convention).
  const custom = /^PT([1-5]\d\d)$/.exec(code)
  if (custom) return Number(custom[1])
  if (code === '42501') return role === 'anon' ? 401 : 403
  if (code === '23503' || code === '23505') return 409
  if (code === '25006') return 405
  if (code === 'P0001') return 400
  if (code === '42883' || code === '42P01') return 404
  if (code === '42P17') return 500
  const cls = code.slice(0, 2)
  switch (cls) {
    case '08':
    case '53':
      return 503
    case '0L':
    case '0P':
    case '28':
      return 403
    case '54':
      return 413
    case '09':
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500
    default:
      return 400
  }
}

export function toPostgrestError(error: unknown, role: string): PostgrestError {
  if (error instanceof PostgrestError) return error
  if (isPgError(error)) {
    return new PostgrestError(
      statusForSqlState(error.code, role),
      error.code,
      error.message,
      error.detail ?? null,
      error.hint ?? null,
    )
  }
  const message = error instanceof Error ? error.message : String(error)
  return new PostgrestError(500, 'PGRST000', message)
}
