// Users and media files for the storage tests. The users are signed up through the real auth API
// and confirmed directly in the database, so these tests follow the storage rules whatever proof
// of an address sign-up asks for (issue 23, finding 1); the files are real media, since storage
// reads a file's type from its bytes.
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { clientFor, type Client } from '../contract-testing.ts'
import type { HumoBackend } from '../server.ts'

/** A confirmed user, signed in; with a role, given that user_profiles row. */
export async function confirmedUser(
  backend: HumoBackend,
  role: 'owner' | 'manager' | 'budtender' | 'driver' | 'customer' | null = null,
): Promise<Client> {
  const client = clientFor(backend, backend.anonKey)
  const email = `storage-${randomUUID()}@example.com`
  const password = `Humo storage ${randomUUID()}`
  const signUp = await client.auth.signUp({ email, password })
  if (signUp.error) throw signUp.error
  const { rows } = await backend.db.query<{ id: string }>(
    'update auth.users set email_confirmed_at = now() where email = $1 returning id',
    [email],
  )
  if (!rows[0]) throw new Error(`sign-up made no user ${email}`)
  if (role) {
    await backend.db.query('insert into public.user_profiles (user_id, role) values ($1, $2)', [
      rows[0].id,
      role,
    ])
  }
  const signIn = await client.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  return client
}

const picture = () => sharp({ create: { width: 2, height: 2, channels: 3, background: '#2f6b3a' } })

export async function mediaFiles() {
  const seedMedia = join(import.meta.dirname, '../../seed/media')
  const firstVideo = readdirSync(seedMedia).find((name) => name.endsWith('.mp4'))!
  return {
    png: await picture().png().toBuffer(),
    jpeg: await picture().jpeg().toBuffer(),
    webp: await picture().webp().toBuffer(),
    gif: await picture().gif().toBuffer(),
    mp4: readFileSync(join(seedMedia, firstVideo)),
    // A WebM's EBML header (DocType "webm") and the start of its segment: what a type is read from.
    webm: Buffer.from(
      '1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701000000000000',
      'hex',
    ),
  }
}
