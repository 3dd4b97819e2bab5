// A real SMTP server for the order emails' tests (smtp-server, the server half of nodemailer's
// project): it receives what the sender sends over a socket, can refuse mail for a while, and can
// be stopped and started again on the same port to play a mail server that is down.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type ReceivedEmail = {
  from: string
  to: string[]
  subject: string
  headers: Record<string, string>
  text: string
  html: string
  raw: string
}

export type SmtpTestServer = {
  port: number
  /** smtp://user:pass@127.0.0.1:<port> */
  url: string
  received: ReceivedEmail[]
  /** 'accept', or refuse every message with a temporary (451) or permanent (550) answer. */
  mode: 'accept' | 'temporary' | 'permanent'
  /** How many messages were refused so far. */
  refused: number
  stop(): Promise<void>
  start(): Promise<void>
  /** Resolves when `count` messages have arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEmail[]>
}

const USER = 'humo'
const PASS = 'mail-secret'

/** Quoted-printable or base64 body of one MIME part, as UTF-8 text. */
function decodeBody(body: string, encoding: string): string {
  if (/base64/i.test(encoding))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (/quoted-printable/i.test(encoding)) {
    const bytes: number[] = []
    const soft = body.replace(/=\r?\n/g, '')
    for (let i = 0; i < soft.length; i++) {
      const hex = soft[i] === '=' ? /^[0-9A-F]{2}/i.exec(soft.slice(i + 1, i + 3)) : null
      if (hex) {
        bytes.push(parseInt(hex[0], 16))
        i += 2
      } else {
        bytes.push(...Buffer.from(soft[i]!, 'utf8'))
      }
    }
    return Buffer.from(bytes).toString('utf8')
  }
  return body
}

/** RFC 2047 encoded words in a header ("=?UTF-8?Q?...?="). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QB])\?([^?]*)\?=/gi,
      (_, _charset: string, enc: string, data: string) =>
        enc.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeBody(data.replace(/_/g, ' '), 'quoted-printable'),
    )
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':')
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim()
  }
  return headers
}

function splitPart(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/)
  if (at < 0) return { headers: parseHeaders(raw), body: '' }
  return {
    headers: parseHeaders(raw.slice(0, at)),
    body: raw.slice(at).replace(/^\r?\n\r?\n/, ''),
  }
}

/** Enough MIME for nodemailer's text + html messages (multipart/alternative, maybe nested). */
function parseEmail(raw: string): Pick<ReceivedEmail, 'headers' | 'subject' | 'text' | 'html'> {
  const top = splitPart(raw)
  const found = { text: '', html: '' }
  const walk = (part: { headers: Record<string, string>; body: string }) => {
    const type = part.headers['content-type'] ?? 'text/plain'
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
    if (/^multipart\//i.test(type) && boundary) {
      const pieces = part.body.split(`--${boundary}`).slice(1)
      for (const piece of pieces) {
        if (piece.startsWith('--')) break
        walk(splitPart(piece.replace(/^\r?\n/, '')))
      }
      return
    }
    const body = decodeBody(part.body, part.headers['content-transfer-encoding'] ?? '').replace(
      /\r\n/g,
      '\n',
    )
    if (/^text\/html/i.test(type)) found.html = body
    else if (/^text\/plain/i.test(type)) found.text = body
  }
  walk(top)
  return { headers: top.headers, subject: decodeHeader(top.headers.subject ?? ''), ...found }
}

export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  let server: SMTPServer | null = null
  let port = 0
  const waiters: (() => void)[] = []

  const state: SmtpTestServer = {
    port: 0,
    url: '',
    received: [],
    mode: 'accept',
    refused: 0,
    async start() {
      const smtp = new SMTPServer({
        // Plain text on the loopback: the test has no certificate for STARTTLS.
        disabledCommands: ['STARTTLS'],
        authOptional: false,
        logger: false,
        onAuth(auth, _session, callback) {
          if (auth.username === USER && auth.password === PASS) callback(null, { user: USER })
          else callback(new Error('Invalid username or password'))
        },
        onRcptTo(address, _session, callback) {
          // nobody@… plays a mailbox that does not exist.
          if (address.address.startsWith('nobody@')) {
            const error = new Error('No such user here') as Error & { responseCode: number }
            error.responseCode = 550
            callback(error)
          } else callback()
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            if (state.mode !== 'accept') {
              state.refused++
              const error = new Error(
                state.mode === 'temporary' ? 'Try again later' : 'Message refused',
              ) as Error & { responseCode: number }
              error.responseCode = state.mode === 'temporary' ? 451 : 550
              callback(error)
              return
            }
            const raw = Buffer.concat(chunks).toString('utf8')
            const envelope = session.envelope
            state.received.push({
              from: envelope.mailFrom ? envelope.mailFrom.address : '',
              to: envelope.rcptTo.map((r) => r.address),
              raw,
              ...parseEmail(raw),
            })
            for (const wake of waiters.splice(0)) wake()
            callback()
          })
        },
      })
      await new Promise<void>((done, fail) => {
        smtp.once('error', fail)
        smtp.listen(port, '127.0.0.1', () => {
          smtp.off('error', fail)
          done()
        })
      })
      smtp.on('error', () => {
        // a client that hangs up mid-session; nothing to do
      })
      server = smtp
      port = (smtp.server.address() as AddressInfo).port
      state.port = port
      state.url = `smtp://${USER}:${PASS}@127.0.0.1:${port}`
    },
    async stop() {
      const smtp = server
      server = null
      if (smtp) await new Promise<void>((done) => smtp.close(() => done()))
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      while (state.received.length < count) {
        const left = deadline - Date.now()
        if (left <= 0)
          throw new Error(`expected ${count} email(s), received ${state.received.length}`)
        await new Promise<void>((done) => {
          const timer = setTimeout(done, Math.min(left, 250))
          waiters.push(() => {
            clearTimeout(timer)
            done()
          })
        })
      }
      return state.received
    },
  }
  await state.start()
  return state
}
