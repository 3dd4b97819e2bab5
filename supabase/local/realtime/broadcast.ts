// The stand-in's Broadcast from the database and its private-channel authorization. Hosted
// Supabase Realtime reads inserts into `realtime.messages` (made by `realtime.send`) from a
// replication slot; PGlite has none, so the stand-in's `realtime.send` (bootstrap.sql) also
// NOTIFYs `humo_realtime_broadcast` and the realtime server reads the rows it has not delivered
// yet by their `seq`, a column only the stand-in's table has.
//
// A private channel is authorized the way Supabase Realtime does it: in a transaction that is
// always rolled back, the owner inserts a probe message on the topic, then the caller's role and
// JWT claims (with `realtime.topic` set) must be able to SELECT it under RLS (read) and may be
// able to INSERT one (write, for client-sent broadcasts).
import type { PGlite } from '@electric-sql/pglite'
import type { RequestAuth } from '../request/request-context.ts'

export const BROADCAST_CHANNEL = 'humo_realtime_broadcast'

/** How long delivered messages stay in realtime.messages before the server deletes them. */
const KEEP_MINUTES = 5

export interface StoredBroadcast {
  seq: number
  id: string
  /** Without the client's `realtime:` prefix, as realtime.send was given it. */
  topic: string
  event: string | null
  payload: unknown
  private: boolean
}

const isMissingTable = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '42P01'

/** The newest message's seq: where delivery starts, so nothing older is replayed. */
export async function latestBroadcastSeq(db: PGlite): Promise<number> {
  try {
    const { rows } = await db.query<{ seq: number }>(
      `select coalesce(max(seq), 0)::float8 as seq from realtime.messages`,
    )
    return rows[0]?.seq ?? 0
  } catch (error) {
    if (isMissingTable(error)) return 0 // an old database: nothing can have been sent yet
    throw error
  }
}

/** Broadcast messages committed after `after`, oldest first. */
export async function broadcastsAfter(db: PGlite, after: number): Promise<StoredBroadcast[]> {
  try {
    const { rows } = await db.query<StoredBroadcast>(
      `select seq::float8 as seq, id::text as id, topic, event, payload, coalesce(private, false) as private
         from realtime.messages
        where seq > $1 and extension = 'broadcast'
        order by seq`,
      [after],
    )
    return rows
  } catch (error) {
    if (isMissingTable(error)) return []
    throw error
  }
}

/** Forgets messages older than a few minutes: they have been delivered (or never will be). */
export async function pruneBroadcasts(db: PGlite): Promise<void> {
  try {
    await db.query(
      // Delivered messages are transient: this commit need not wait for the disk (docs/decisions/041-group-commit.md).
      `delete from realtime.messages where inserted_at < now() - make_interval(mins => $1)
          and (select set_config('synchronous_commit', 'off', true)) is not null`,
      [KEEP_MINUTES],
    )
  } catch (error) {
    if (!isMissingTable(error)) throw error
  }
}

export interface ChannelPermissions {
  read: boolean
  write: boolean
}

/** What the caller may do on a private channel's topic (without the `realtime:` prefix). */
export async function privateChannelPermissions(
  db: PGlite,
  auth: RequestAuth,
  topic: string,
): Promise<ChannelPermissions> {
  try {
    return await db.transaction(async (tx) => {
      const probe = await tx.query<{ id: string }>(
        `insert into realtime.messages (topic, extension, private) values ($1, 'broadcast', true)
         returning id::text as id`,
        [topic],
      )
      const id = probe.rows[0]!.id
      await tx.query(
        `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                set_config('realtime.topic', $3, true)`,
        [auth.role, JSON.stringify(auth.claims), topic],
      )
      let read = false
      try {
        const { rows } = await tx.query<{ visible: boolean }>(
          `select exists (select 1 from realtime.messages where id = $1::uuid) as visible`,
          [id],
        )
        read = rows[0]?.visible ?? false
      } catch {
        // No SELECT privilege: the same answer as a policy that says no.
      }
      let write = false
      if (read) {
        try {
          await tx.query(
            `insert into realtime.messages (topic, extension, private) values ($1, 'broadcast', true)`,
            [topic],
          )
          write = true
        } catch {
          // Refused by a grant or a policy; the transaction is spoilt, which the rollback ends.
        }
      }
      await tx.rollback()
      return { read, write }
    })
  } catch {
    return { read: false, write: false }
  }
}

// Client-sent broadcasts over the 2.0.0 serializer travel as binary frames (realtime-js
// lib/serializer.ts): a push is kind 3, what the server relays is kind 4.
const USER_BROADCAST_PUSH = 3
const USER_BROADCAST = 4
export const JSON_ENCODING = 1

export interface UserBroadcastPush {
  joinRef: string | null
  ref: string | null
  topic: string
  event: string
  /** The payload's bytes as sent: JSON text (encoding 1) or opaque binary (encoding 0). */
  body: Buffer
  encoding: number
}

/** Reads a kind-3 frame; null for anything else or anything malformed. */
export function decodeUserBroadcastPush(frame: Buffer): UserBroadcastPush | null {
  if (frame.length < 7 || frame[0] !== USER_BROADCAST_PUSH) return null
  const [joinRefLength, refLength, topicLength, eventLength, metaLength] = [
    frame[1]!,
    frame[2]!,
    frame[3]!,
    frame[4]!,
    frame[5]!,
  ]
  const encoding = frame[6]!
  let offset = 7
  const take = (length: number): string => {
    const text = frame.subarray(offset, offset + length).toString('utf8')
    offset += length
    return text
  }
  if (offset + joinRefLength + refLength + topicLength + eventLength + metaLength > frame.length)
    return null
  const joinRef = take(joinRefLength)
  const ref = take(refLength)
  const topic = take(topicLength)
  const event = take(eventLength)
  take(metaLength) // metadata is not relayed
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event,
    body: frame.subarray(offset),
    encoding,
  }
}

/** A kind-4 frame, as realtime-js decodes it into {type: 'broadcast', event, payload}. */
export function encodeUserBroadcast(
  topic: string,
  event: string,
  body: Buffer,
  encoding: number,
): Buffer | null {
  const topicBytes = Buffer.from(topic, 'utf8')
  const eventBytes = Buffer.from(event, 'utf8')
  if (topicBytes.length > 255 || eventBytes.length > 255) return null
  const header = Buffer.from([USER_BROADCAST, topicBytes.length, eventBytes.length, 0, encoding])
  return Buffer.concat([header, topicBytes, eventBytes, body])
}
