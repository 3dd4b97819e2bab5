// Failures of the server's parts without a logger of their own (auth, storage, realtime, static
// files, pre-rendering) go out as one JSON line each, with no personal data: before, they printed
// whole error objects, Postgres' detail (`Key (email)=(…) already exists`) and all.
import { afterEach, expect, it, vi } from 'vitest'
import { reportServerError } from './request-log.ts'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

function failure(): Error {
  const error = new Error('duplicate key: ana.reyes@example.com, (510) 555-0100') as Error & {
    code: string
    detail: string
  }
  error.code = '23505'
  error.detail = 'Key (email)=(ana.reyes@example.com) already exists.'
  return error
}

it('writes one JSON line with the kind and code of the error and nothing personal', () => {
  const lines: string[] = []
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '))
  })
  reportServerError('auth request failed', failure())
  expect(lines).toHaveLength(1)
  const line = JSON.parse(lines[0]!) as { level: string; msg: string; err: Record<string, string> }
  expect(line.level).toBe('error')
  expect(line.msg).toBe('auth request failed')
  expect(line.err.code).toBe('23505')
  expect(lines[0]).not.toMatch(/ana\.reyes|example\.com|555|already exists/)
})

it('writes nothing when the logs are off', () => {
  vi.stubEnv('HUMO_LOG_LEVEL', 'off')
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  reportServerError('storage request failed', failure())
  expect(spy).not.toHaveBeenCalled()
})
