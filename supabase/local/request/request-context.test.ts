// The request's role and settings go to Postgres as dollar-quoted text in one statement
// (request-context.ts, docs/decisions/049-patch-cached-pages-with-new-stock.md): whatever a caller puts in a header or a path must arrive as
// the same text, never end the quoting early or run as SQL.
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { withRequestRole } from './request-context.ts'

let db: PGlite

beforeAll(async () => {
  db = await PGlite.create()
  await db.exec(`create role anon; create table marker (id int); grant select on marker to anon`)
})
afterAll(async () => {
  await db?.close()
})

it('passes hostile headers, paths and claims through as text, quoting and all', async () => {
  const hostile = [
    `$h$; drop table marker; --`,
    `ends with $h`,
    `$h$$h0$$h1$ every tag`,
    `it's "quoted" \\ back\\slashed`,
    `nul \u0000 inside`,
    `'); select pg_sleep(10); --`,
    `ünïcödé ☃ ${'x'.repeat(10_000)}`,
  ]
  for (const value of hostile) {
    const seen = await withRequestRole(
      db,
      { role: 'anon', claims: { role: 'anon', note: value } },
      { method: 'GET', path: `/rest/v1/${value}`, headers: { 'x-test': value }, readOnly: true },
      async (tx) =>
        (
          await tx.query<{ role: string; path: string; headers: string; claims: string }>(
            `select current_user as role, current_setting('request.path') as path,
                    current_setting('request.headers') as headers,
                    current_setting('request.jwt.claims') as claims`,
          )
        ).rows[0]!,
    )
    // Postgres text cannot hold NUL: it arrives as U+FFFD.
    const expected = value.replaceAll('\u0000', '\uFFFD')
    expect(seen.role).toBe('anon')
    expect(seen.path).toBe(`/rest/v1/${expected}`)
    expect((JSON.parse(seen.headers) as Record<string, string>)['x-test']).toBe(value)
    expect((JSON.parse(seen.claims) as { note: string }).note).toBe(value)
  }
  // Nothing ran as SQL, and the transaction was read only.
  expect((await db.query(`select count(*)::int as n from marker`)).rows).toEqual([{ n: 0 }])
  await expect(
    withRequestRole(
      db,
      { role: 'anon', claims: {} },
      { method: 'GET', path: '/', headers: {}, readOnly: true },
      (tx) => tx.query(`insert into marker values (1)`),
    ),
  ).rejects.toThrow(/read-only|permission denied/)
})
