// Opens the stand-in's Postgres (PGlite) and brings its schema up to date: on a fresh database
// the bootstrap (what hosted Supabase provides) runs first (its later part, bootstrap-realtime.sql,
// at every start), then every migration in
// supabase/migrations not yet recorded, in file-name order. Applied migrations are recorded in
// supabase_migrations.schema_migrations, the table the Supabase CLI uses for the same purpose.
import { mkdir, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'

const here = fileURLToPath(new URL('.', import.meta.url))
export const BOOTSTRAP_FILE = join(here, 'bootstrap.sql')
/** The part of the bootstrap that came later: also run at every start of an existing database. */
export const BOOTSTRAP_REALTIME_FILE = join(here, 'bootstrap-realtime.sql')
export const MIGRATIONS_DIR = join(here, '..', 'migrations')

const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/

export interface OpenedDatabase {
  db: PGlite
  /** True when this start created the database (bootstrap ran), so it still needs its seed. */
  fresh: boolean
  applied: string[]
}

/** dbDir null: in-memory database. */
export async function openDatabase(dbDir: string | null): Promise<OpenedDatabase> {
  if (dbDir) await mkdir(dbDir, { recursive: true })
  const db = dbDir ? await PGlite.create({ dataDir: dbDir }) : await PGlite.create()
  try {
    const fresh = !(await hasMigrationTable(db))
    if (fresh) {
      const bootstrap = await readFile(BOOTSTRAP_FILE, 'utf8')
      await db.transaction(async (tx) => {
        await tx.exec(bootstrap)
        await tx.exec(`
          create schema supabase_migrations;
          create table supabase_migrations.schema_migrations (
            version text primary key,
            statements text[],
            name text,
            applied_at timestamptz not null default now()
          );
        `)
      })
    }
    // Written to run again: a data folder made before it existed gets it before the migrations.
    await db.exec(await readFile(BOOTSTRAP_REALTIME_FILE, 'utf8'))
    const applied = await applyMigrations(db)
    return { db, fresh, applied }
  } catch (error) {
    await db.close()
    throw error
  }
}

async function hasMigrationTable(db: PGlite): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    `select to_regclass('supabase_migrations.schema_migrations') is not null as present`,
  )
  return rows[0]?.present ?? false
}

export async function listMigrations(): Promise<{ version: string; name: string; file: string }[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort()
  return files.map((file) => {
    const match = MIGRATION_FILE.exec(file)
    if (!match)
      throw new Error(
        `Migration file name must be <14-digit timestamp>_<verb>_<object>.sql: ${file}`,
      )
    return { version: match[1]!, name: match[2]!, file: join(MIGRATIONS_DIR, file) }
  })
}

async function applyMigrations(db: PGlite): Promise<string[]> {
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  )
  const done = new Set(rows.map((r) => r.version))
  const applied: string[] = []
  for (const migration of await listMigrations()) {
    if (done.has(migration.version)) continue
    const sql = await readFile(migration.file, 'utf8')
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql)
        await tx.query(
          'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
          [migration.version, migration.name, [sql]],
        )
      })
    } catch (error) {
      throw new Error(
        `Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
        { cause: error },
      )
    }
    applied.push(`${migration.version}_${migration.name}`)
  }
  return applied
}
