// GoTrue's error responses, so supabase-js raises the same AuthError subclasses against the
// stand-in as against Supabase Auth. GoTrue has two body shapes: with the request header
// `X-Supabase-Api-Version: 2024-01-01` (supabase-js always sends it) `{code: "<error code>",
// message}` and the version echoed back; without it the initial `{code: <status>, error_code, msg}`.
// supabase-js reads the error code from `code` only when the echoed version says 2024-01-01.
import type { IncomingMessage, ServerResponse } from 'node:http'

export const API_VERSION_HEADER = 'X-Supabase-Api-Version'
const API_VERSION_2024 = '2024-01-01'

export class GoTrueError extends Error {
  readonly status: number
  readonly code: string
  /** Extra top-level fields, e.g. `weak_password: {reasons}`. */
  readonly extra: Record<string, unknown>
  /** Extra response headers, e.g. Retry-After on a 429. */
  readonly headers: Record<string, string>

  constructor(
    status: number,
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message)
    this.status = status
    this.code = code
    this.extra = extra
    this.headers = headers
  }
}

export const badRequest = (code: string, message: string): GoTrueError =>
  new GoTrueError(400, code, message)

export const unprocessable = (code: string, message: string): GoTrueError =>
  new GoTrueError(422, code, message)

export const forbidden = (code: string, message: string): GoTrueError =>
  new GoTrueError(403, code, message)

export const weakPassword = (messages: string[], reasons: string[]): GoTrueError =>
  new GoTrueError(422, 'weak_password', messages.join(' '), { weak_password: { reasons } })

/**
 * The API version the request asked for, as GoTrue resolves it: the closest known version at or
 * before the requested date, or null (the initial version) when absent or invalid.
 */
export function requestedApiVersion(req: IncomingMessage): string | null {
  const raw = req.headers[API_VERSION_HEADER.toLowerCase()]
  const value = Array.isArray(raw) ? raw[0] : raw
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null
  const time = Date.parse(`${value}T00:00:00Z`)
  if (Number.isNaN(time)) return null
  return time >= Date.parse(`${API_VERSION_2024}T00:00:00Z`) ? API_VERSION_2024 : null
}

export function sendAuthJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const version = requestedApiVersion(req)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    ...(version ? { [API_VERSION_HEADER]: version } : {}),
    ...headers,
  })
  res.end(status === 204 ? undefined : JSON.stringify(body))
}

export function sendAuthError(req: IncomingMessage, res: ServerResponse, error: GoTrueError): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const body = requestedApiVersion(req)
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra }
  sendAuthJson(req, res, error.status, body, { ...error.headers, 'x-sb-error-code': error.code })
}
