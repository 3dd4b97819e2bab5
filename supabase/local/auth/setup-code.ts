// The first admin's setup code (docs/decisions/025-setup-code-and-invitations.md): while the shop has no admin, every start makes
// sure a one-time code exists and hands it back for main.ts to print, as Grafana and Jenkins do.
// The code is HUMO_SETUP_CODE when set (scripted installs), else the one kept in the data folder's
// setup-code file (mode 0600; made with a new random code on first start). The database keeps only
// its hash (private.set_setup_code); claim_first_admin spends it. Once the shop has an admin the
// file is removed: the code can never be used again.
import { randomInt } from 'node:crypto'
import { chmod, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'

export const SETUP_CODE_FILE = 'setup-code'

// Crockford's base32: no I, L, O or U, so nothing to misread; 16 characters are 80 random bits.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A new random code, XXXX-XXXX-XXXX-XXXX. */
export function newSetupCode(): string {
  const chars = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]!)
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-')
}

/** As the database reads a typed code: any case, dashes and spaces ignored, O as 0, I and L as 1. */
export function normalizeSetupCode(code: string): string {
  return code
    .replace(/[\s-]+/g, '')
    .toUpperCase()
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1')
}

export const SETUP_CODE_RULE =
  'HUMO_SETUP_CODE must be 12 to 64 letters or digits (dashes and spaces are ignored)'

export type SetupCode =
  /** The code to print; file is where it is kept, null when it came from the environment. */
  | { status: 'ready'; code: string; file: string | null; fromEnvironment: boolean }
  /** The shop has an admin: nothing to claim. */
  | { status: 'claimed' }
  /** HUMO_SETUP_CODE was already used once; the shop cannot be claimed until it is changed. */
  | { status: 'spent' }

async function hasAdmin(db: PGlite): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>(
    `select exists (select 1 from public.user_profiles where role = 'owner' and not _deleted)`,
  )
  return rows[0]?.exists ?? false
}

async function store(db: PGlite, code: string): Promise<boolean> {
  const { rows } = await db.query<{ stored: boolean }>(
    'select private.set_setup_code($1) as stored',
    [code],
  )
  return rows[0]?.stored ?? false
}

async function readKept(file: string): Promise<string | null> {
  try {
    const kept = (await readFile(file, 'utf8')).trim()
    return /^[0-9A-Z]{12,64}$/.test(normalizeSetupCode(kept)) ? kept : null
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/**
 * Makes the shop's setup code ready at start. `code` is HUMO_SETUP_CODE (or a test's fixed code);
 * without it the code lives in `dataDir`/setup-code, or only in memory when there is no data folder.
 */
export async function prepareSetupCode(
  db: PGlite,
  options: { dataDir: string | null; code?: string | null },
): Promise<SetupCode> {
  const file = options.dataDir ? join(options.dataDir, SETUP_CODE_FILE) : null
  if (await hasAdmin(db)) {
    if (file) await rm(file, { force: true })
    return { status: 'claimed' }
  }
  const given = options.code?.trim()
  if (given) {
    // Checked here too, so a bad value stops the start with the variable's name in the message.
    if (!/^[0-9A-Z]{12,64}$/.test(normalizeSetupCode(given))) throw new Error(SETUP_CODE_RULE)
    if (!(await store(db, given))) return { status: 'spent' }
    return { status: 'ready', code: given, file: null, fromEnvironment: true }
  }
  if (!file) {
    const code = newSetupCode()
    await store(db, code)
    return { status: 'ready', code, file: null, fromEnvironment: false }
  }
  const kept = await readKept(file)
  if (kept && (await store(db, kept))) {
    // Whoever made the file, only the server's user reads it.
    await chmod(file, 0o600)
    return { status: 'ready', code: kept, file, fromEnvironment: false }
  }
  // First start, an unreadable file, or a code already spent: a new one.
  const code = newSetupCode()
  await rm(file, { force: true })
  await writeFile(file, `${code}\n`, { mode: 0o600, flag: 'wx' })
  await store(db, code)
  return { status: 'ready', code, file, fromEnvironment: false }
}
