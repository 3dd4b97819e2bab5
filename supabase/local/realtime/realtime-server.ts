// The stand-in's /realtime/v1/websocket: the Phoenix channel protocol that realtime-js speaks
// (serializer vsn 2.0.0, arrays `[join_ref, ref, topic, event, payload]`; 1.0.0 objects also
// accepted) with Supabase Realtime's postgres_changes extension. A channel joins with its
// bindings ({event, schema, table, filter}); the join reply hands back an id per binding, and
// every change event carries the ids of the bindings it satisfies.
//
// Read rules come before filters (issue 23, finding 7): an event reaches a subscriber only if the
// subscriber's role and JWT claims may SELECT the row — for INSERT and UPDATE the new row, checked
// by running the select under RLS; for DELETE the old row, which no longer exists, so it is put
// back inside a transaction that is always rolled back (triggers off), selected under the
// subscriber's role, and gone again (a DELETE reaches only those who could read the row before).
// A binding's filter then sees only the columns the role may SELECT (a filter on any other column
// matches nothing), and the payload carries only those columns; old rows carry only their
// primary key, as Supabase does with the default replica identity. Otherwise a filter would answer
// yes or no about hidden rows and columns.
//
// Hostile clients: messages are capped in size (maxPayload) and nesting, each socket in messages
// per second and channels, each address in sockets and joins per second; filters in length and
// `in` values. Bad bindings get an error reply, never a crash.
//
// Broadcast: messages that `realtime.send` puts in realtime.messages reach the channels joined on
// their topic (private messages only private channels, public ones only public channels), and a
// client's own broadcast is relayed to the topic's other joiners (to itself too with
// config.broadcast.self; acknowledged with config.broadcast.ack). A private channel (config.private)
// joins only if RLS on realtime.messages lets the caller read its topic (broadcast.ts). Presence is
// not implemented (joins that ask for it still succeed).
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { PGlite } from '@electric-sql/pglite'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { clientAddress } from '../http/client-address.ts'
import { JwtError, verifyJwt } from '../auth/jwt-keys.ts'
import { parseJsonText } from '../http/http-body.ts'
import { API_CSP, SECURITY_HEADERS } from '../http/security-headers.ts'
import { withRequestRole, type RequestAuth } from '../request/request-context.ts'
import {
  BROADCAST_CHANNEL,
  JSON_ENCODING,
  broadcastsAfter,
  decodeUserBroadcastPush,
  encodeUserBroadcast,
  latestBroadcastSeq,
  privateChannelPermissions,
  pruneBroadcasts,
  type StoredBroadcast,
} from './broadcast.ts'
import {
  CHANGES_CHANNEL,
  installChangeCapture,
  dropChanges,
  takeChanges,
  type CapturedChange,
  type PublishedTable,
} from './change-capture.ts'
import { reportServerError } from '../http/request-log.ts'

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
  private: boolean
  /** config.broadcast.self: the sender receives its own broadcasts too. */
  broadcastSelf: boolean
  /** config.broadcast.ack: the sender's broadcasts are answered. */
  broadcastAck: boolean
  /** A private channel's caller may also send (RLS lets it insert into realtime.messages). */
  mayWrite: boolean
}

/** A broadcast's payload: a JSON value, or opaque bytes that only binary frames can carry. */
type BroadcastBody = { json: unknown } | { binary: Buffer }

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
const PRUNE_EVERY_MS = 60_000
const DROP_CHANGES_EVERY_MS = 1000

// Limits. Supabase's own: 256 KB messages (its Broadcast payload cap), 100 channels per client,
// 100 `in` values per filter. No realtime-js message nests more than a few levels.
export const MAX_MESSAGE_BYTES = 256 * 1024
export const MAX_MESSAGE_DEPTH = 32
export const MAX_CHANNELS_PER_SOCKET = 100
export const MAX_BINDINGS_PER_JOIN = 100
export const MAX_FILTER_LENGTH = 1024
export const MAX_IN_VALUES = 100
/** Messages per socket per second; beyond it they are refused, far beyond it the socket closes. */
export const MESSAGES_PER_SECOND = 100
/** Joins and token changes (each asks the database) per client address per second, all sockets. */
export const JOINS_PER_SECOND_PER_ADDRESS = 100
export const MAX_SOCKETS_PER_ADDRESS = 100

const subTopic = (topic: string) => topic.replace(/^realtime:/, '')

/** Runs `work` one pass at a time; a call during a pass asks for another pass after it. */
function serially(work: () => Promise<void>, what: string) {
  let running: Promise<void> | null = null
  let again = false
  const run = (): void => {
    if (running) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        await work()
      } while (again)
    })()
      .catch((error: unknown) => reportServerError(`realtime ${what} failed`, error))
      .finally(() => {
        running = null
      })
  }
  return { run, settled: () => running }
}

export async function startRealtime(db: PGlite, jwtSecret: Uint8Array): Promise<RealtimeServer> {
  let tables = await installChangeCapture(db)
  const clients = new Set<Client>()
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const socketsPerAddress = new Map<string, number>()
  /** Role → published table ("schema.table") → the columns the role may SELECT (per batch). */
  let readable = new Map<string, Promise<Map<string, Set<string>>>>()
  let nextBindingId = 1

  /** With no socket connected: when the queue was last emptied, and whether rows wait in it. */
  let changesDroppedAt = 0
  let changesBehind = false
  let dropLater: NodeJS.Timeout | null = null
  const changes = serially(async () => {
    // No socket, no one to tell: the queue is only emptied, at most once a second (a statement
    // per order cost ~0.6 ms) and within a second. The next socket to connect empties it before
    // its joins (catchUp below), so it misses what committed before it, as with a drain.
    if (clients.size === 0) {
      const wait = changesDroppedAt + DROP_CHANGES_EVERY_MS - Date.now()
      if (wait > 0) {
        changesBehind = true
        dropLater ??= setTimeout(() => {
          dropLater = null
          changes.run()
        }, wait).unref()
        return
      }
      changesDroppedAt = Date.now()
      changesBehind = false
      await dropChanges(db)
      return
    }
    const taken = await takeChanges(db)
    // Column grants are read again for each batch, so a grant or revoke applies from the next one.
    readable = new Map()
    if (clients.size > 0) for (const change of taken) await deliver(change)
  }, 'delivery')
  const unlisten = await db.listen(CHANGES_CHANNEL, changes.run)
  changes.run() // whatever was queued before this start

  // Messages sent before this start are not replayed (Supabase delivers only to joined channels).
  let deliveredSeq = await latestBroadcastSeq(db)
  let prunedAt = 0
  /**
   * With no socket connected the stored messages are not read at all (a query per order's status
   * broadcast, ~0.4 ms), nor the change queue emptied more than once a second; the next socket to
   * connect first empties the queue and moves deliveredSeq past the stored messages (catchUp),
   * and handles its joins only after that, so it is never sent what was sent before it came.
   */
  let behind = false
  let catchingUp: Promise<void> | null = null
  const catchUp = (): Promise<void> => {
    if (behind || changesBehind) {
      const broadcastsToo = behind
      behind = false
      changesBehind = false
      catchingUp = (async () => {
        await dropChanges(db)
        if (broadcastsToo) deliveredSeq = Math.max(deliveredSeq, await latestBroadcastSeq(db))
      })()
        .catch((error: unknown) => reportServerError('realtime catch-up failed', error))
        .finally(() => {
          catchingUp = null
        })
    }
    return catchingUp ?? Promise.resolve()
  }
  const broadcasts = serially(async () => {
    if (clients.size === 0) behind = true
    else {
      const rows = await broadcastsAfter(db, deliveredSeq)
      for (const row of rows) {
        // Read before a socket's catch-up moved past it: sent before that socket came.
        if (row.seq <= deliveredSeq) continue
        deliveredSeq = row.seq
        deliverStored(row)
      }
    }
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now()
      await pruneBroadcasts(db)
    }
  }, 'broadcast')
  const unlistenBroadcasts = await db.listen(BROADCAST_CHANNEL, broadcasts.run)
  broadcasts.run()

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
    const shown = (name: string) => (name.length > 64 ? `${name.slice(0, 64)}…` : name)
    if (table && !tables.has(`${schema}.${table}`))
      throw new Error(
        `Table ${shown(schema)}.${shown(table)} is not in the supabase_realtime publication`,
      )
    if (!table && ![...tables.values()].some((t) => t.schema === schema))
      throw new Error(`No table of schema ${shown(schema)} is in the supabase_realtime publication`)
    let filter: Binding['filter'] = null
    if (spec.filter !== undefined && spec.filter !== null && typeof spec.filter !== 'string')
      throw new Error('A filter must be a string')
    if (typeof spec.filter === 'string' && spec.filter !== '') {
      if (spec.filter.length > MAX_FILTER_LENGTH)
        throw new Error(`A filter may be at most ${MAX_FILTER_LENGTH} characters long`)
      if (!table) throw new Error('A filter needs a table')
      const match = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s.exec(spec.filter)
      if (!match) throw new Error(`Unable to parse the filter "${spec.filter}"`)
      const op = match[2] as FilterOp
      const value = match[3]!
      const column = match[1]!
      if (!tables.get(`${schema}.${table}`)!.columns.some((c) => c.name === column))
        throw new Error(`Unable to parse the filter: ${table} has no column ${shown(column)}`)
      if (op === 'in' && !/^\(.*\)$/s.test(value))
        throw new Error('Unable to parse the filter: in. expects a parenthesised list')
      const values =
        op === 'in'
          ? value
              .replace(/^\(|\)$/g, '')
              .split(',')
              .map((v) => v.trim().replace(/^"|"$/g, ''))
          : [value]
      if (values.length > MAX_IN_VALUES)
        throw new Error(`A filter may list at most ${MAX_IN_VALUES} values`)
      filter = { column, op, values }
    }
    const requested: Binding['requested'] = { event: rawEvent, schema: text(spec.schema) ?? schema }
    if (text(spec.table) !== undefined) requested.table = text(spec.table)
    if (text(spec.filter) !== undefined) requested.filter = text(spec.filter)
    return { id: nextBindingId++, requested, event: event as ChangeEvent, schema, table, filter }
  }

  function unauthorized(verb: 'read from' | 'write to', topic: string) {
    return {
      reason: `Unauthorized: You do not have permissions to ${verb} this Channel topic: ${subTopic(topic)}`,
    }
  }

  async function join(client: Client, message: Message): Promise<void> {
    const payload = (
      typeof message.payload === 'object' && message.payload !== null ? message.payload : {}
    ) as {
      config?: {
        postgres_changes?: unknown[]
        private?: unknown
        broadcast?: { self?: unknown; ack?: unknown } | null
      } | null
      access_token?: unknown
    }
    let auth: RequestAuth
    try {
      auth = await authFor(payload.access_token ?? client.apikey)
    } catch (error) {
      reply(client, message, 'error', { reason: `Invalid JWT: ${(error as Error).message}` })
      return
    }
    const isPrivate = payload.config?.private === true
    let mayWrite = true
    if (isPrivate) {
      const permissions = await privateChannelPermissions(db, auth, subTopic(message.topic))
      if (!permissions.read) {
        reply(client, message, 'error', unauthorized('read from', message.topic))
        return
      }
      mayWrite = permissions.write
    }
    if (!client.channels.has(message.topic) && client.channels.size >= MAX_CHANNELS_PER_SOCKET) {
      reply(client, message, 'error', {
        reason: `Too many channels: at most ${MAX_CHANNELS_PER_SOCKET} per connection`,
      })
      return
    }
    let bindings: Binding[]
    try {
      const requested = payload.config?.postgres_changes ?? []
      if (!Array.isArray(requested)) throw new Error('postgres_changes must be a list')
      if (requested.length > MAX_BINDINGS_PER_JOIN)
        throw new Error(`At most ${MAX_BINDINGS_PER_JOIN} postgres_changes per channel`)
      bindings = requested.map(parseBinding)
    } catch (error) {
      reply(client, message, 'error', { reason: (error as Error).message })
      return
    }
    const broadcast = payload.config?.broadcast
    client.channels.set(message.topic, {
      topic: message.topic,
      joinRef: message.join_ref ?? message.ref,
      auth,
      bindings,
      private: isPrivate,
      broadcastSelf: broadcast?.self === true,
      broadcastAck: broadcast?.ack === true,
      mayWrite,
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
          const auth = await authFor(token)
          if (channel.private) {
            // A new token is a new identity: the topic's policies are asked again.
            const permissions = await privateChannelPermissions(db, auth, subTopic(channel.topic))
            if (!permissions.read) throw new Error(unauthorized('read from', channel.topic).reason)
            channel.mayWrite = permissions.write
          }
          channel.auth = auth
          reply(client, message, 'ok', {})
        } catch (error) {
          // Supabase closes a channel whose new token is invalid or no longer authorized.
          const reason = (error as Error).message
          reply(client, message, 'error', {
            reason: error instanceof JwtError ? `Invalid JWT: ${reason}` : reason,
          })
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
      case 'broadcast':
        return relay(client, message)
      default:
        if (client.channels.has(message.topic)) reply(client, message, 'ok', {})
        else reply(client, message, 'error', { reason: 'unmatched topic' })
    }
  }

  function decode(client: Client, data: RawData, isBinary: boolean): Message | null {
    const bytes = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data)
    if (isBinary) {
      // realtime-js sends a broadcast with a string event as a binary push.
      const push = decodeUserBroadcastPush(bytes)
      if (!push) return null
      // A Buffer payload can only come from here (never from JSON): relay() keys on that.
      let body: unknown
      if (push.encoding === JSON_ENCODING) {
        try {
          body = parseJsonText(push.body.toString('utf8'), MAX_MESSAGE_DEPTH)
        } catch {
          return null
        }
      } else body = Buffer.from(push.body)
      return {
        join_ref: push.joinRef,
        ref: push.ref,
        topic: push.topic,
        event: 'broadcast',
        payload: { type: 'broadcast', event: push.event, payload: body },
      }
    }
    let parsed: unknown
    try {
      parsed = parseJsonText(bytes.toString('utf8'), MAX_MESSAGE_DEPTH)
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

  /** The binding's filter, against only the columns the subscriber may read. */
  function filterMatches(
    binding: Binding,
    row: Record<string, unknown> | null,
    columns: ReadonlySet<string>,
  ): boolean {
    const filter = binding.filter
    if (!filter) return true
    if (!columns.has(filter.column)) return false
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

  const pick = (row: Record<string, unknown> | null, keys: Iterable<string>) =>
    row ? Object.fromEntries([...keys].filter((k) => k in row).map((k) => [k, row[k]])) : {}

  const NO_COLUMNS: ReadonlySet<string> = new Set()

  /** The columns of each published table that `role` may SELECT (column grants included). */
  async function readableColumns(role: string, table: string): Promise<ReadonlySet<string>> {
    let forRole = readable.get(role)
    if (!forRole) {
      forRole = db
        .query<{ key: string; name: string }>(
          `select n.nspname || '.' || c.relname as key, a.attname as name
             from pg_publication_tables p
             join pg_namespace n on n.nspname = p.schemaname
             join pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
             join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
            where p.pubname = 'supabase_realtime'
              and has_column_privilege($1, c.oid, a.attnum, 'SELECT')`,
          [role],
        )
        .then(({ rows }) => {
          const map = new Map<string, Set<string>>()
          for (const row of rows) {
            const set = map.get(row.key) ?? new Set<string>()
            set.add(row.name)
            map.set(row.key, set)
          }
          return map
        })
      readable.set(role, forRole)
      // A failed lookup is asked again next time rather than remembered.
      forRole.catch(() => readable.delete(role))
    }
    try {
      return (await forRole).get(table) ?? NO_COLUMNS
    } catch {
      return NO_COLUMNS
    }
  }

  const quote = (n: string) => `"${n.replace(/"/g, '""')}"`

  /** SQL that says whether the row with `$1`'s primary key is visible to the current role. */
  function visibleSql(table: PublishedTable): string {
    const target = `${quote(table.schema)}.${quote(table.table)}`
    const where = table.primaryKey.map((k) => `t.${quote(k)} = (r).${quote(k)}`).join(' and ')
    return `select exists (select 1 from ${target} t, (select jsonb_populate_record(null::${target}, $1::jsonb) as r) s where ${where}) as visible`
  }

  /** May this caller SELECT the (new) row? Asked of Postgres under the caller's role and claims. */
  async function canSee(
    auth: RequestAuth,
    table: PublishedTable,
    row: Record<string, unknown>,
  ): Promise<boolean> {
    if (auth.role === 'service_role') return true
    if (table.primaryKey.length === 0) return false
    try {
      return await withRequestRole(
        db,
        auth,
        { method: 'GET', path: '/realtime', headers: {}, readOnly: true },
        async (tx) => {
          const { rows } = await tx.query<{ visible: boolean }>(visibleSql(table), [
            JSON.stringify(row),
          ])
          return rows[0]?.visible ?? false
        },
      )
    } catch {
      return false // e.g. no SELECT privilege: Supabase sends nothing either
    }
  }

  /**
   * Could this caller SELECT a row that was deleted? The row is inserted again (as the server's
   * own role, with triggers and foreign key checks off by session_replication_role), selected
   * under the caller's role and claims exactly as canSee does, and the transaction is always
   * rolled back. Any failure (the key was reused since, say) counts as not visible.
   */
  async function couldSeeDeleted(
    auth: RequestAuth,
    table: PublishedTable,
    old: Record<string, unknown>,
  ): Promise<boolean> {
    if (auth.role === 'service_role') return true
    if (table.primaryKey.length === 0) return false
    const target = `${quote(table.schema)}.${quote(table.table)}`
    const columns = table.columns
      .map((c) => c.name)
      .filter((name) => name in old && !table.generated.includes(name))
      .map(quote)
      .join(', ')
    // Thrown to roll the transaction back with the answer.
    class Verdict extends Error {
      constructor(readonly visible: boolean) {
        super('verdict')
      }
    }
    try {
      await db.transaction(async (tx) => {
        await tx.exec('set local session_replication_role = replica')
        await tx.query(
          `insert into ${target} (${columns}) overriding system value
           select ${columns} from jsonb_populate_record(null::${target}, $1::jsonb)`,
          [JSON.stringify(old)],
        )
        await tx.query(
          `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                  set_config('request.method', 'GET', true), set_config('request.path', '/realtime', true),
                  set_config('request.headers', '{}', true)`,
          [auth.role, JSON.stringify(auth.claims)],
        )
        const { rows } = await tx.query<{ visible: boolean }>(visibleSql(table), [
          JSON.stringify(old),
        ])
        throw new Verdict(rows[0]?.visible ?? false)
      })
    } catch (outcome) {
      if (outcome instanceof Verdict) return outcome.visible
    }
    return false
  }

  async function deliver(change: CapturedChange): Promise<void> {
    const tableKey = `${change.schema_name}.${change.table_name}`
    const table = tables.get(tableKey)
    if (!table) return
    const isDelete = change.type === 'DELETE'
    // The row the rule and the filter look at: the new row, or for a DELETE the old one.
    const row = isDelete ? change.old_record : change.record
    if (!row) return

    // Per role: the event as that role may see it (only the columns it may read).
    const payloads = new Map<string, Promise<Record<string, unknown>>>()
    const payloadFor = async (role: string): Promise<Record<string, unknown>> => {
      const columns = await readableColumns(role, tableKey)
      const data: Record<string, unknown> = {
        schema: change.schema_name,
        table: change.table_name,
        commit_timestamp: change.commit_timestamp.toISOString(),
        type: change.type,
        columns: table.columns.filter((c) => columns.has(c.name)),
        errors: null,
      }
      if (!isDelete) data.record = pick(change.record, columns)
      // Like Supabase with the default replica identity: the old row is only its primary key.
      if (change.type !== 'INSERT')
        data.old_record = pick(
          change.old_record,
          table.primaryKey.filter((k) => columns.has(k)),
        )
      return data
    }
    // Per identity (role and claims, which policies read): may it read the row?
    const visibility = new Map<string, Promise<boolean>>()

    for (const client of clients) {
      for (const channel of client.channels.values()) {
        if (expired(channel)) continue
        const candidates = channel.bindings.filter(
          (b) =>
            b.schema === change.schema_name &&
            (b.table === null || b.table === change.table_name) &&
            (b.event === '*' || b.event === change.type),
        )
        if (candidates.length === 0) continue
        const columns = await readableColumns(channel.auth.role, tableKey)
        if (columns.size === 0) continue
        const ids = candidates.filter((b) => filterMatches(b, row, columns)).map((b) => b.id)
        if (ids.length === 0) continue
        // Both the rule and the filter must pass, and the filter saw only readable columns, so
        // checking the (cheaper) filter first tells nothing about the row.
        const key = JSON.stringify([channel.auth.role, channel.auth.claims])
        let visible = visibility.get(key)
        if (!visible) {
          visible = isDelete
            ? couldSeeDeleted(channel.auth, table, row)
            : canSee(channel.auth, table, row)
          visibility.set(key, visible)
        }
        if (!(await visible)) continue
        let data = payloads.get(channel.auth.role)
        if (!data) {
          data = payloadFor(channel.auth.role)
          payloads.set(channel.auth.role, data)
        }
        send(client, {
          join_ref: channel.joinRef,
          ref: null,
          topic: channel.topic,
          event: 'postgres_changes',
          payload: { ids, data: await data },
        })
      }
    }
  }

  function expired(channel: Channel): boolean {
    const exp = channel.auth.claims.exp
    return typeof exp === 'number' && exp * 1000 < Date.now()
  }

  /** Sends a broadcast to every channel joined on `topic` with the same privacy. */
  function broadcastTo(
    topic: string,
    isPrivate: boolean,
    event: string,
    body: BroadcastBody,
    skip: Channel | null,
  ): void {
    const frame =
      'binary' in body
        ? encodeUserBroadcast(topic, event, body.binary, 0)
        : JSON.stringify([
            null,
            null,
            topic,
            'broadcast',
            { type: 'broadcast', event, payload: body.json },
          ])
    for (const client of clients) {
      const channel = client.channels.get(topic)
      if (!channel || channel === skip || channel.private !== isPrivate || expired(channel))
        continue
      if (client.socket.readyState !== client.socket.OPEN) continue
      if ('binary' in body) {
        // Bytes only travel in 2.0.0's binary frames.
        if (client.vsn === '2.0.0' && frame) client.socket.send(frame)
      } else if (client.vsn === '2.0.0') client.socket.send(frame as string)
      else
        send(client, {
          join_ref: null,
          ref: null,
          topic,
          event: 'broadcast',
          payload: { type: 'broadcast', event, payload: body.json },
        })
    }
  }

  /** A message realtime.send stored: Supabase adds the message's id to an object payload. */
  function deliverStored(row: StoredBroadcast): void {
    const payload = row.payload
    // Supabase skips rows without an event or an object payload too.
    if (
      row.event === null ||
      typeof payload !== 'object' ||
      payload === null ||
      Array.isArray(payload)
    )
      return
    const json = 'id' in payload ? payload : { ...payload, id: row.id }
    broadcastTo(`realtime:${row.topic}`, row.private, row.event, { json }, null)
  }

  /** A client's own broadcast, relayed to the topic's other joiners. */
  function relay(client: Client, message: Message): void {
    const channel = client.channels.get(message.topic)
    if (!channel) {
      reply(client, message, 'error', { reason: 'unmatched topic' })
      return
    }
    const push = (
      typeof message.payload === 'object' && message.payload !== null ? message.payload : {}
    ) as { event?: unknown; payload?: unknown }
    if (typeof push.event !== 'string' || push.event === '') {
      reply(client, message, 'error', { reason: 'A broadcast needs an event name' })
      return
    }
    if (channel.private && !channel.mayWrite) {
      reply(client, message, 'error', unauthorized('write to', message.topic))
      return
    }
    const body: BroadcastBody = Buffer.isBuffer(push.payload)
      ? { binary: push.payload }
      : { json: push.payload ?? {} }
    broadcastTo(
      message.topic,
      channel.private,
      push.event,
      body,
      channel.broadcastSelf ? null : channel,
    )
    if (channel.broadcastAck) reply(client, message, 'ok', {})
  }

  const joinWindows = new Map<string, { start: number; count: number }>()
  /** Counts a join from `address`; false when the address is over its budget this second. */
  function joinAllowed(address: string): boolean {
    const now = Date.now()
    let window = joinWindows.get(address)
    if (!window || now - window.start >= 1000) {
      // Stale windows only matter while their address is busy; forget them all now and then.
      if (joinWindows.size > 10_000) joinWindows.clear()
      window = { start: now, count: 0 }
      joinWindows.set(address, window)
    }
    return ++window.count <= JOINS_PER_SECOND_PER_ADDRESS
  }

  wss.on('connection', (socket: WebSocket, req: IncomingMessage, apikey: string) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const address = clientAddress(req)
    const client: Client = {
      socket,
      vsn: url.searchParams.get('vsn') === '1.0.0' ? '1.0.0' : '2.0.0',
      channels: new Map(),
      apikey,
    }
    clients.add(client)
    // Messages are handled in order per socket: a join must be in place before what follows it;
    // the first waits for the broadcasts' catch-up, if one is needed.
    let queue = catchUp()
    let windowStart = Date.now()
    let inWindow = 0
    socket.on('message', (data, isBinary) => {
      const now = Date.now()
      if (now - windowStart >= 1000) {
        windowStart = now
        inWindow = 0
      }
      inWindow++
      if (inWindow > 10 * MESSAGES_PER_SECOND) {
        socket.close(1008, 'Too many messages')
        return
      }
      const message = decode(client, data, isBinary)
      if (!message) return
      if (inWindow > MESSAGES_PER_SECOND) {
        // Refused unanswered except joins, whose caller waits for a reply.
        if (message.event === 'phx_join')
          reply(client, message, 'error', { reason: 'Too many messages: slow down' })
        return
      }
      if (
        (message.event === 'phx_join' || message.event === 'access_token') &&
        !joinAllowed(address)
      ) {
        reply(client, message, 'error', { reason: 'Too many joins from this address: slow down' })
        return
      }
      queue = queue
        .then(() => handle(client, message))
        .catch((error: unknown) => reportServerError('realtime message failed', error))
    })
    socket.on('close', () => clients.delete(client))
    socket.on('error', () => clients.delete(client))
  })

  return {
    handleUpgrade(req, socket, head) {
      // A refusal is an answer like any other: the security headers and a message saying why.
      const refuse = (status: number, text: string, message: string) => {
        const body = JSON.stringify({ code: status, message })
        const headers = {
          ...SECURITY_HEADERS,
          'Content-Security-Policy': API_CSP,
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(body)),
          Connection: 'close',
        }
        socket.end(
          `HTTP/1.1 ${status} ${text}\r\n` +
            Object.entries(headers)
              .map(([name, value]) => `${name}: ${value}\r\n`)
              .join('') +
            `\r\n${body}`,
        )
      }
      let url: URL
      try {
        url = new URL(req.url ?? '/', 'http://localhost')
      } catch {
        // '//' and the like: thrown here, in an event listener, it would end the process.
        return refuse(400, 'Bad Request', 'The request path is not a valid URL')
      }
      if (url.pathname !== PATH)
        return refuse(404, 'Not Found', `Only ${PATH} takes WebSocket connections`)
      // What ws would refuse with a bare answer of its own.
      if (
        !/^[+/0-9A-Za-z]{22}==$/.test(String(req.headers['sec-websocket-key'] ?? '')) ||
        !['8', '13'].includes(String(req.headers['sec-websocket-version'] ?? ''))
      )
        return refuse(400, 'Bad Request', 'Not a valid WebSocket handshake')
      const address = clientAddress(req)
      if ((socketsPerAddress.get(address) ?? 0) >= MAX_SOCKETS_PER_ADDRESS)
        return refuse(429, 'Too Many Requests', 'Too many connections from this address')
      const apikey = url.searchParams.get('apikey') ?? String(req.headers.apikey ?? '')
      verifyJwt(jwtSecret, apikey).then(
        () =>
          wss.handleUpgrade(req, socket, head, (ws) => {
            socketsPerAddress.set(address, (socketsPerAddress.get(address) ?? 0) + 1)
            ws.once('close', () => {
              const left = (socketsPerAddress.get(address) ?? 1) - 1
              if (left <= 0) socketsPerAddress.delete(address)
              else socketsPerAddress.set(address, left)
            })
            wss.emit('connection', ws, req, apikey)
          }),
        () => refuse(403, 'Forbidden', 'The apikey is not a valid key of this server'),
      )
    },
    async refresh() {
      tables = await installChangeCapture(db)
    },
    async close() {
      await unlisten()
      await unlistenBroadcasts()
      if (dropLater) clearTimeout(dropLater)
      dropLater = null
      for (const client of clients) client.socket.terminate()
      clients.clear()
      await new Promise<void>((done) => wss.close(() => done()))
      await changes.settled()
      await broadcasts.settled()
    },
  }
}
