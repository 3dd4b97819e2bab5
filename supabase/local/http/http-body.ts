// Reading request bodies for the stand-in's APIs with a size cap. An oversized body is answered
// (413 by REST, Supabase's shapes elsewhere) instead of being buffered: the cap is checked against
// Content-Length first, then while streaming. What the client still sends is drained (up to a
// bound) so it can read our answer instead of seeing its upload reset mid-way.
import type { IncomingMessage } from 'node:http'

export class BodyTooLargeError extends Error {
  readonly limit: number
  constructor(limit: number) {
    super(`Request body is larger than ${limit} bytes`)
    this.limit = limit
  }
}

const MB = 1024 * 1024

export function formatLimit(limit: number): string {
  return limit % MB === 0 ? `${limit / MB} MB` : `${limit} bytes`
}

/** Discards the rest of a request body; gives up (closing the connection) after 4× the limit. */
function drain(req: IncomingMessage, limit: number): void {
  let drained = 0
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > 4 * limit) req.destroy()
  })
  req.on('error', () => {})
  req.resume()
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    drain(req, limit)
    return Promise.reject(new BodyTooLargeError(limit))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const onData = (chunk: Buffer) => {
      if (done) return
      size += chunk.length
      if (size > limit) {
        done = true
        req.off('data', onData)
        drain(req, limit)
        reject(new BodyTooLargeError(limit))
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => {
      if (done) return
      done = true
      resolve(Buffer.concat(chunks))
    })
    req.once('error', (error) => {
      if (done) return
      done = true
      reject(error)
    })
  })
}

// JSON bodies. Every API reads JSON through parseJsonBody so that no body reaches code that walks
// it recursively (JSON.stringify, the SQL builders, jsonb conversion) nested deeper than any real
// request is: 200,000 brackets otherwise end in "Maximum call stack size exceeded" and a 500.
// Size caps per endpoint class (what a real request needs, with a wide margin; an RPC's arguments
// are kilobytes, and a big body holds the single-connection database while it converts):
/** Auth (GoTrue) bodies: an email, a password, a little user metadata. */
export const AUTH_BODY_LIMIT = 64 * 1024
/** RPC arguments (place_order, track_order, contact messages, the admin's single saves). */
export const RPC_BODY_LIMIT = 256 * 1024
/** REST writes (insert, update, upsert) and storage's JSON endpoints. */
export const REST_WRITE_BODY_LIMIT = MB
/** The admin's bulk import (every product of a CSV in one call), for signed-in callers only. */
export const BULK_BODY_LIMIT = 4 * MB
/** No request of the shop nests more than a handful of levels; 64 leaves room for any jsonb. */
export const JSON_MAX_DEPTH = 64

export class JsonBodyError extends Error {
  readonly reason: 'too_deep' | 'invalid'
  constructor(reason: 'too_deep' | 'invalid', message: string) {
    super(message)
    this.reason = reason
  }
}

/**
 * Whether JSON text nests deeper than `max`, by one pass over the characters (brackets inside
 * strings do not count) — no recursion and no parse, so it is safe on any input.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c /* \ */) i++
      else if (c === 0x22 /* " */) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--
  }
  return false
}

/** JSON.parse with a depth limit; every failure (RangeError included) is a JsonBodyError. */
export function parseJsonText(text: string, maxDepth = JSON_MAX_DEPTH): unknown {
  if (jsonNestsDeeperThan(text, maxDepth)) {
    throw new JsonBodyError('too_deep', `JSON is nested more than ${maxDepth} levels deep`)
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new JsonBodyError('invalid', error instanceof Error ? error.message : 'Invalid JSON')
  }
}

/**
 * Reads and parses a JSON body under a size cap and the depth limit. Rejects with
 * BodyTooLargeError (answer 413) or JsonBodyError (answer 400); `undefined` for an empty body.
 */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number,
  maxDepth = JSON_MAX_DEPTH,
): Promise<unknown> {
  const text = (await readBody(req, limit)).toString('utf8').trim()
  return text === '' ? undefined : parseJsonText(text, maxDepth)
}
