// @vitest-environment node
// The embedded backend on a data folder: a restart keeps the data and the keys, and does not seed
// again.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Database } from './rest/api-types.ts'
import { startHumoBackend } from './server.ts'

const clientOptions = {
  auth: { persistSession: false },
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
}

let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'humo-restart-'))
})

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

it('keeps data, keys and media across a restart without re-seeding', async () => {
  const first = await startHumoBackend({ dataDir, quiet: true })
  let slug: string
  let total: number
  try {
    const service = createClient<Database>(first.url, first.serviceRoleKey, clientOptions)
    const all = await service.from('products').select('id, slug', { count: 'exact' }).order('slug')
    total = all.count!
    expect(total).toBeGreaterThanOrEqual(12)
    slug = all.data![0]!.slug
    const renamed = await service
      .from('products')
      .update({ name: 'Renamed Before Restart' })
      .eq('slug', slug)
    expect(renamed.error).toBeNull()
  } finally {
    await first.close()
  }
  const secret = await readFile(join(dataDir, 'jwt-secret'), 'utf8')
  expect(secret.trim().length).toBeGreaterThanOrEqual(32)

  const second = await startHumoBackend({ dataDir, quiet: true })
  try {
    expect(second.anonKey).toBe(first.anonKey)
    const anon = createClient<Database>(second.url, second.anonKey, clientOptions)
    const again = await anon.from('products').select('id', { count: 'exact', head: true })
    expect(again.count).toBe(total)
    const renamed = await anon
      .from('products')
      .select('name, product_media(media_url)')
      .eq('slug', slug)
      .single()
    expect(renamed.data!.name).toBe('Renamed Before Restart')
    const image = await fetch(
      anon.storage.from('product_media').getPublicUrl(renamed.data!.product_media[0]!.media_url)
        .data.publicUrl,
    )
    expect(image.status).toBe(200)
  } finally {
    await second.close()
  }
}, 90_000)
