// The stand-in's /realtime/v1/websocket: the Phoenix channel protocol that realtime-js speaks
// (serializer vsn 2.0.0, arrays `[join_ref, ref, topic, event, payload]`; 1.0.0 objects also
// accepted) with Supabase Realtime's postgres_changes extension. A channel joins with its
// bindings ({event, schema, table, filter}); the join reply hands back an id per binding, and
// every change event carries the ids of the bindings it satisfies.
//
// Like Supabase: INSERT and UPDATE events reach a subscriber only if the subscriber's role and
// JWT claims may SELECT the new row (checked by running the select under RLS); DELETE events go
// to every matching binding and carry only the primary key. Broadcast and presence are not
// implemented (joins that ask for them still succeed).
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { PGlite } from '@electric-sql/pglite'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { JwtError, verifyJwt } from '../jwt-keys.ts'
import { withRequestRole, type RequestAuth } from '../request-context.ts'
import {
  CHANGES_CHANNEL,
  installChangeCapture,
  takeChanges,
  type CapturedChange,
  type PublishedTable,
} from './change-capture.ts'

type ChangeEvent = 'INSERT' | 'UPDATE' | 'DELETE' | '*'
type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in'

interface Binding {
  id: number
  /** Exactly what the client sent, echoed in the join reply (the client compares them). */
  requested: { event: string; schema: string; table?: string; filter?: string }
  event: ChangeEvent
  schema: string
  table: string | null
  filter: { column: string; op: FilterOp; values: string[] } | null
}

interface Channel {
  topic: string
  joinRef: string | null
  auth: RequestAuth
  bindings: Binding[]
}

interface Client {
  socket: WebSocket
  vsn: '1.0.0' | '2.0.0'
  /** The key the socket connected with: a join without access_token runs as its role. */
  apikey: string
  channels: Map<string, Channel>
}

interface Message {
  join_ref: string | null
  ref: string | null
  topic: string
  event: string
  payload: unknown
}

export interface RealtimeServer {
  /** For http.Server 'upgrade': takes /realtime/v1/websocket, refuses anything else. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  /** Re-installs capture triggers (after a schema change). */
  refresh(): Promise<void>
  close(): Promise<void>
}

const PATH = '/realtime/v1/websocket'

export async function startRealtime(db: PGlite, jwtSecret: Uint8Array): Promise<RealtimeServer> {
  let tables = await installChangeCapture(db)
  const clients = new Set<Client>()
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 })
  let nextBindingId = 1

  // Draining: one at a time; a notification during a drain asks for another pass.
  let draining: Promise<void> | null = null
  let again = false
  const drain = (): void => {
    if (draining) {
      again = true
      return
    }
    draining = (async () => {
      do {
        again = false
        const changes = await takeChanges(db)
        if (clients.size > 0) for (const change of changes) await deliver(change)
      } while (again)
    })()
      .catch((error: unknown) => console.error('[humo-backend] realtime delivery failed:', error))
      .finally(() => {
        draining = null
      })
  }
  const unlisten = await db.listen(CHANGES_CHANNEL, drain)
  drain() // whatever was queued before this start

  function send(client: Client, message: Message): void {
    if (client.socket.readyState !== client.socket.OPEN) return
    const { join_ref, ref, topic, event, payload } = message
    client.socket.send(
      JSON.stringify(
        client.vsn === '2.0.0'
          ? [join_ref, ref, topic, event, payload]
          : { join_ref, ref, topic, event, payload },
      ),
    )
  }

  const reply = (client: Client, message: Message, status: 'ok' | 'error', response: unknown) =>
    send(client, {
      join_ref: message.join_ref,
      ref: message.ref,
      topic: message.topic,
      event: 'phx_reply',
      payload: { status, response },
    })

  async function authFor(token: unknown): Promise<RequestAuth> {
    if (typeof token !== 'string' || token === '') throw new JwtError('No access token')
    const { role, claims } = await verifyJwt(jwtSecret, token)
    return { role, claims }
  }

  function parseBinding(raw: unknown): Binding {
    const spec = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
    const text = (value: unknown): string | undefined =>
      typeof value === 'string' ? value : undefined
    const rawEvent = text(spec.event) ?? '*'
    const event = rawEvent.toUpperCase()
    if (!['INSERT', 'UPDATE', 'DELETE', '*'].includes(event))
      throw new Error(`Invalid event "${rawEvent}"`)
    const schema = typeof spec.schema === 'string' && spec.schema ? spec.schema : 'public'
    const table = typeof spec.table === 'string' && spec.table !== '*' ? spec.table : null
    if (table && !tables.has(`${schema}.${table}`))
      throw new Error(`Table ${schema}.${table} is not in the supabase_realtime publication`)
    let filter: Binding['filter'] = null
    if (typeof spec.filter === 'string' && spec.filter !== '') {
      const match = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s.exec(spec.filter)
      if (!match) throw new Error(`Unable to parse the filter "${spec.filter}"`)
      const op = match[2] as FilterOp
      const value = match[3]!
      const values =
        op === 'in'
          ? value
              .replace(/^\(|\)$/g, '')
              .split(',')
              .map((v) => v.trim().replace(/^"|"$/g, ''))
          : [value]
      filter = { column: match[1]!, op, values }
    }
    const requested: Binding['requested'] = { event: rawEvent, schema: text(spec.schema) ?? schema }
    if (text(spec.table) !== undefined) requested.table = text(spec.table)
    if (text(spec.filter) !== undefined) requested.filter = text(spec.filter)
    return { id: nextBindingId++, requested, event: event as ChangeEvent, schema, table, filter }
  }

  async function join(client: Client, message: Message): Promise<void> {
    const payload = (message.payload ?? {}) as {
      config?: { postgres_changes?: unknown[]; private?: boolean }
      access_token?: unknown
    }
    let auth: RequestAuth
    try {
      auth = await authFor(payload.access_token ?? client.apikey)
    } catch (error) {
      reply(client, message, 'error', { reason: `Invalid JWT: ${(error as Error).message}` })
      return
    }
    if (payload.config?.private) {
      reply(client, message, 'error', {
        reason: 'Private channels are not supported by the embedded backend',
      })
      return
    }
    let bindings: Binding[]
    try {
      bindings = (payload.config?.postgres_changes ?? []).map(parseBinding)
    } catch (error) {
      reply(client, message, 'error', { reason: (error as Error).message })
      return
    }
    client.channels.set(message.topic, {
      topic: message.topic,
      joinRef: message.join_ref ?? message.ref,
      auth,
      bindings,
    })
    reply(client, message, 'ok', {
      postgres_changes: bindings.map((b) => ({ id: b.id, ...b.requested })),
    })
    if (bindings.length > 0) {
      send(client, {
        join_ref: message.join_ref,
        ref: null,
        topic: message.topic,
        event: 'system',
        payload: {
          message: 'Subscribed to PostgreSQL',
          status: 'ok',
          extension: 'postgres_changes',
          channel: message.topic.replace(/^realtime:/, ''),
        },
      })
    }
  }

  async function handle(client: Client, message: Message): Promise<void> {
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') reply(client, message, 'ok', {})
      return
    }
    switch (message.event) {
      case 'phx_join':
        return join(client, message)
      case 'phx_leave':
        client.channels.delete(message.topic)
        reply(client, message, 'ok', {})
        send(client, { ...message, event: 'phx_close', payload: {} })
        return
      case 'access_token': {
        const channel = client.channels.get(message.topic)
        const token = (message.payload as { access_token?: unknown } | null)?.access_token
        if (!channel) return
        try {
          channel.auth = await authFor(token)
          reply(client, message, 'ok', {})
        } catch (error) {
          // Supabase closes a channel whose new token is invalid.
          reply(client, message, 'error', { reason: `Invalid JWT: ${(error as Error).message}` })
          client.channels.delete(message.topic)
          send(client, {
            join_ref: channel.joinRef,
            ref: null,
            topic: message.topic,
            event: 'phx_close',
            payload: {},
          })
        }
        return
      }
      default:
        if (client.channels.has(message.topic)) reply(client, message, 'ok', {})
        else reply(client, message, 'error', { reason: 'unmatched topic' })
    }
  }

  function decode(client: Client, data: RawData, isBinary: boolean): Message | null {
    if (isBinary) return null // binary broadcast pushes: broadcast is not implemented
    let parsed: unknown
    try {
      const bytes = Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data)
      parsed = JSON.parse(bytes.toString('utf8'))
    } catch {
      return null
    }
    if (Array.isArray(parsed) && parsed.length === 5) {
      const [join_ref, ref, topic, event, payload] = parsed as unknown[]
      if (typeof topic !== 'string' || typeof event !== 'string') return null
      return {
        join_ref: typeof join_ref === 'string' ? join_ref : null,
        ref: typeof ref === 'string' ? ref : null,
        topic,
        event,
        payload,
      }
    }
    if (client.vsn === '1.0.0' && typeof parsed === 'object' && parsed !== null) {
      const m = parsed as Record<string, unknown>
      if (typeof m.topic !== 'string' || typeof m.event !== 'string') return null
      return {
        join_ref: typeof m.join_ref === 'string' ? m.join_ref : null,
        ref: typeof m.ref === 'string' ? m.ref : null,
        topic: m.topic,
        event: m.event,
        payload: m.payload,
      }
    }
    return null
  }

  // delivery --------------------------------------------------------------------------------------

  function filterMatches(binding: Binding, row: Record<string, unknown> | null): boolean {
    const filter = binding.filter
    if (!filter) return true
    if (!row || !(filter.column in row)) return false
    const raw = row[filter.column]
    if (raw === null || raw === undefined) return false
    const value =
      typeof raw === 'string'
        ? raw
        : typeof raw === 'number' || typeof raw === 'boolean'
          ? String(raw)
          : JSON.stringify(raw)
    const compare = (a: string, b: string): number => {
      const na = Number(a)
      const nb = Number(b)
      return a !== '' && b !== '' && !Number.isNaN(na) && !Number.isNaN(nb)
        ? na - nb
        : a < b
          ? -1
          : a > b
            ? 1
            : 0
    }
    const [first = ''] = filter.values
    switch (filter.op) {
      case 'eq':
        return compare(value, first) === 0
      case 'neq':
        return compare(value, first) !== 0
      case 'lt':
        return compare(value, first) < 0
      case 'lte':
        return compare(value, first) <= 0
      case 'gt':
        return compare(value, first) > 0
      case 'gte':
        return compare(value, first) >= 0
      case 'in':
        return filter.values.some((v) => compare(value, v) === 0)
    }
  }

  const pick = (row: Record<string, unknown> | null, keys: string[]) =>
    row ? Object.fromEntries(keys.filter((k) => k in row).map((k) => [k, row[k]])) : {}

  /** May this caller SELECT the row? Asked of Postgres under the caller's role and claims. */
  async function canSee(
    auth: RequestAuth,
    table: PublishedTable,
    row: Record<string, unknown>,
  ): Promise<boolean> {
    if (auth.role === 'service_role') return true
    if (table.primaryKey.length === 0) return false
    const q = (n: string) => `"${n.replace(/"/g, '""')}"`
    const target = `${q(table.schema)}.${q(table.table)}`
    const where = table.primaryKey.map((k) => `t.${q(k)} = (r).${q(k)}`).join(' and ')
    try {
      return await withRequestRole(
        db,
        auth,
        { method: 'GET', path: '/realtime', headers: {}, readOnly: true },
        async (tx) => {
          const { rows } = await tx.query<{ visible: boolean }>(
            `select exists (select 1 from ${target} t, (select jsonb_populate_record(null::${target}, $1::jsonb) as r) s where ${where}) as visible`,
            [JSON.stringify(row)],
          )
          return rows[0]?.visible ?? false
        },
      )
    } catch {
      return false // e.g. no SELECT privilege: Supabase sends nothing either
    }
  }

  async function deliver(change: CapturedChange): Promise<void> {
    const table = tables.get(`${change.schema_name}.${change.table_name}`)
    if (!table) return
    const isDelete = change.type === 'DELETE'
    const record = change.record
    const data: Record<string, unknown> = {
      schema: change.schema_name,
      table: change.table_name,
      commit_timestamp: change.commit_timestamp.toISOString(),
      type: change.type,
      columns: table.columns,
      errors: null,
    }
    if (!isDelete) data.record = record
    // Like Supabase with the default replica identity: the old row is only its primary key.
    if (change.type !== 'INSERT') data.old_record = pick(change.old_record, table.primaryKey)

    const visibility = new Map<string, Promise<boolean>>()
    for (const client of clients) {
      for (const channel of client.channels.values()) {
        const exp = channel.auth.claims.exp
        if (typeof exp === 'number' && exp * 1000 < Date.now()) continue
        const ids = channel.bindings
          .filter(
            (b) =>
              b.schema === change.schema_name &&
              (b.table === null || b.table === change.table_name) &&
              (b.event === '*' || b.event === change.type) &&
              filterMatches(b, isDelete ? change.old_record : record),
          )
          .map((b) => b.id)
        if (ids.length === 0) continue
        if (!isDelete && record) {
          const key = JSON.stringify([
            channel.auth.role,
            channel.auth.claims.sub ?? null,
            channel.auth.claims.role,
          ])
          let visible = visibility.get(key)
          if (!visible) {
            visible = canSee(channel.auth, table, record)
            visibility.set(key, visible)
          }
          if (!(await visible)) continue
        }
        send(client, {
          join_ref: channel.joinRef,
          ref: null,
          topic: channel.topic,
          event: 'postgres_changes',
          payload: { ids, data },
        })
      }
    }
  }

  wss.on('connection', (socket: WebSocket, req: IncomingMessage, apikey: string) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const client: Client = {
      socket,
      vsn: url.searchParams.get('vsn') === '1.0.0' ? '1.0.0' : '2.0.0',
      channels: new Map(),
      apikey,
    }
    clients.add(client)
    // Messages are handled in order per socket: a join must be in place before what follows it.
    let queue = Promise.resolve()
    socket.on('message', (data, isBinary) => {
      const message = decode(client, data, isBinary)
      if (!message) return
      queue = queue
        .then(() => handle(client, message))
        .catch((error: unknown) => console.error('[humo-backend] realtime message failed:', error))
    })
    socket.on('close', () => clients.delete(client))
    socket.on('error', () => clients.delete(client))
  })

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://localhost')
      const refuse = (status: number, text: string) => {
        socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      }
      if (url.pathname !== PATH) return refuse(404, 'Not Found')
      const apikey = url.searchParams.get('apikey') ?? String(req.headers.apikey ?? '')
      verifyJwt(jwtSecret, apikey).then(
        () => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req, apikey)),
        () => refuse(403, 'Forbidden'),
      )
    },
    async refresh() {
      tables = await installChangeCapture(db)
    },
    async close() {
      await unlisten()
      for (const client of clients) client.socket.terminate()
      clients.clear()
      await new Promise<void>((done) => wss.close(() => done()))
      await draining
    },
  }
}
