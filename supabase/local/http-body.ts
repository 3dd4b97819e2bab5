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
