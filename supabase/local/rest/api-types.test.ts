// api-types.ts stays what the migrations produce: the committed file must equal a fresh generation
// (so a migration that adds a table, column or function fails here until `npm run gen:types`),
// and the generator renders the schema features the migrations do not use yet (enums, views,
// composite types, set-returning and overloaded functions) the way `supabase gen types` does.
import type { PGlite } from '@electric-sql/pglite'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_TYPES_FILE, renderApiTypes } from './api-types-generator.ts'
import { openDatabase } from '../db/database.ts'

let db: PGlite

beforeAll(async () => {
  ;({ db } = await openDatabase(null))
}, 120_000)

afterAll(async () => {
  await db.close()
})

const flat = (text: string) => text.replace(/\s+/g, ' ')

describe('api-types.ts', () => {
  it('is what the migrations generate now', async () => {
    const generated = await renderApiTypes(db)
    const committed = await readFile(API_TYPES_FILE, 'utf8')
    // Received is what the migrations generate now, so the diff's + lines are what is missing.
    expect(
      generated,
      'supabase/local/rest/api-types.ts is out of date with supabase/migrations: run `npm run gen:types` and commit the result',
    ).toBe(committed)
  })

  it('renders enums, views, composite types and set-returning functions like the Supabase CLI', async () => {
    await db.exec(`
      create type public.mood as enum ('calm', 'happy');
      create type public.point2 as (x int4, y int4);
      create table public.notes (
        id bigint generated always as identity primary key,
        product_id uuid unique references public.products (id),
        mood public.mood,
        tags text[] not null default '{}',
        pos public.point2
      );
      create view public.note_view as select id, mood, tags from public.notes;
      create view public.note_counts as select mood, count(*) as n from public.notes group by mood;
      create function public.notes_of(p_mood public.mood) returns setof public.notes
        language sql as 'select * from public.notes where mood = p_mood';
      create function public.note_stats() returns table (mood public.mood, n int8)
        language sql as 'select mood, count(*) from public.notes group by mood';
      create function public.twice(a int4) returns int4 language sql as 'select a * 2';
      create function public.twice(a text) returns text language sql as 'select a || a';
      create function public.hidden() returns int4 language sql as 'select 1';
      revoke execute on function public.hidden() from public, anon, authenticated;
    `)
    const types = flat(await renderApiTypes(db))
    const mood = `Database['public']['Enums']['mood']`

    expect(types).toContain(
      flat(`notes: {
        Row: {
          id: number
          mood: ${mood} | null
          pos: Database['public']['CompositeTypes']['point2'] | null
          product_id: string | null
          tags: string[]
        }
        Insert: {
          id?: never
          mood?: ${mood} | null`),
    )
    expect(types).toContain(
      flat(`foreignKeyName: 'notes_product_id_fkey'
            columns: ['product_id']
            isOneToOne: true
            referencedRelation: 'products'`),
    )
    // A view PostgreSQL can write through gets Insert/Update; an aggregate view only a Row.
    expect(types).toContain(flat(`note_view: { Row: { id: number | null`))
    expect(types).toContain(flat(`Update: { id?: number | null mood?: ${mood} | null`))
    expect(types).toContain(
      flat(`note_counts: { Row: { mood: ${mood} | null n: number | null } Relationships: [] }`),
    )
    expect(types).toContain(
      flat(`note_stats: { Args: never Returns: { mood: ${mood}; n: number }[] }`),
    )
    expect(types).toContain(
      flat(`SetofOptions: { from: '*' to: 'notes' isOneToOne: false isSetofReturn: true }`),
    )
    expect(types).toContain(
      flat(
        `twice: { Args: { a: number }; Returns: number } | { Args: { a: string }; Returns: string }`,
      ),
    )
    // (The function, not any argument whose name holds the word: admin_set_review_hidden's p_hidden.)
    expect(types).not.toMatch(/\bhidden: \{/)
    expect(types).toContain(flat(`Enums: { mood: 'calm' | 'happy' }`))
    expect(types).toContain(flat(`point2: { x: number | null y: number | null }`))
    expect(types).toContain(flat(`Enums: { mood: ['calm', 'happy'], },`))
  })
})
