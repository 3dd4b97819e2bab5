// Compression for what the embedded backend sends: the app's static files (static-app.ts,
// compressed once per version of a file) and the API's JSON answers (rest-handler.ts, compressed
// per answer). Hosted Supabase compresses its API answers too; on a phone's connection the first
// catalogue pull is about a seventh of its size on the wire.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

/** Below this, compressing saves less than the headers it costs. */
export const MIN_COMPRESS_BYTES = 1024

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
// NOTE: brotli quality 5, not 11: it compresses as fast as gzip (the first request of a file
// waits for it) and still beats gzip's size; 11 takes seconds for the app's scripts.
export const compressors = {
  br: (data: Buffer) =>
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data: Buffer) => gzipAsync(data),
}
export type Encoding = keyof typeof compressors

/** The encoding to send, from an Accept-Encoding header (brotli first); null for none. */
export function pickEncoding(header: string | string[] | undefined): Encoding | null {
  const accepted = new Map<string, number>()
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    accepted.set(name, q ? Number(q.slice(2)) : 1)
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0
  if (allows('br')) return 'br'
  if (allows('gzip')) return 'gzip'
  return null
}

/**
 * Sends a text body (an API answer), compressed when it is large enough and the client accepts
 * an encoding. A HEAD request gets the headers only.
 */
export async function sendText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string,
): Promise<void> {
  const data = Buffer.from(body)
  const encoding =
    data.length >= MIN_COMPRESS_BYTES ? pickEncoding(req.headers['accept-encoding']) : null
  if (!encoding) {
    res.writeHead(status, { ...headers, Vary: 'Accept-Encoding' })
    res.end(req.method === 'HEAD' ? undefined : data)
    return
  }
  const compressed = await compressors[encoding](data)
  res.writeHead(status, {
    ...headers,
    'Content-Encoding': encoding,
    'Content-Length': compressed.length,
    Vary: 'Accept-Encoding',
  })
  res.end(req.method === 'HEAD' ? undefined : compressed)
}
