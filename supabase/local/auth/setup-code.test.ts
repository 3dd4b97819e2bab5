// The first admin's setup code across starts of a real data folder: made on first start and kept
// (mode 0600), the same one printed at every start until it is used, then gone; HUMO_SETUP_CODE
// instead when set, checked for length, never valid again once spent.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createUser } from '../../../tests/integration/server-rules/rules-backend'
import { startHumoBackend, type HumoBackend } from '../server.ts'
import { newSetupCode, SETUP_CODE_FILE, SETUP_CODE_RULE } from './setup-code.ts'

const CODE_FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/

let dataDir: string
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'humo-setup-code-'))
})
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

const start = (setupCode?: string) =>
  startHumoBackend({
    dataDir,
    staticDir: null,
    seed: false,
    quiet: true,
    setupCode: setupCode ?? null,
  })

async function claim(backend: HumoBackend, code: string): Promise<unknown> {
  const user = await createUser(backend)
  const response = await user.client.rpc('claim_first_admin', { p_setup_code: code })
  if (response.error) throw new Error(response.error.message)
  return response.data as unknown
}

describe('setup code', () => {
  it('is made on first start, kept in the data folder for the server user only, and gone once used', async () => {
    const first = await start()
    const file = join(dataDir, SETUP_CODE_FILE)
    let code: string
    try {
      expect(first.setup).toMatchObject({ status: 'ready', file, fromEnvironment: false })
      code = first.setup.status === 'ready' ? first.setup.code : ''
      expect(code).toMatch(CODE_FORMAT)
      expect((await readFile(file, 'utf8')).trim()).toBe(code)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
    } finally {
      await first.close()
    }

    // Printed again at the next start while nobody has claimed the shop.
    const second = await start()
    try {
      expect(second.setup).toMatchObject({ status: 'ready', code })
      expect(await claim(second, code)).toEqual({ claimed: true })
    } finally {
      await second.close()
    }

    const third = await start()
    try {
      expect(third.setup).toEqual({ status: 'claimed' })
      await expect(stat(file)).rejects.toThrow(/ENOENT/)
    } finally {
      await third.close()
    }
  })

  it('differs per install', () => {
    const codes = new Set(Array.from({ length: 50 }, () => newSetupCode()))
    expect(codes.size).toBe(50)
  })

  it('is HUMO_SETUP_CODE when set: no file, at least 12 letters or digits, spent once used', async () => {
    await expect(start('short-1234')).rejects.toThrow(SETUP_CODE_RULE)

    const scripted = 'Scripted-Install-2026'
    const first = await start(scripted)
    try {
      expect(first.setup).toEqual({
        status: 'ready',
        code: scripted,
        file: null,
        fromEnvironment: true,
      })
      await expect(stat(join(dataDir, SETUP_CODE_FILE))).rejects.toThrow(/ENOENT/)
      expect(await claim(first, 'scripted install 2026')).toEqual({ claimed: true })
      // The shop loses its admin (all removed by hand).
      await first.db.query(`update public.user_profiles set _deleted = true where role = 'owner'`)
    } finally {
      await first.close()
    }

    // The same value again is not a new chance: it was printed, used and may be in a log.
    const second = await start(scripted)
    try {
      expect(second.setup).toEqual({ status: 'spent' })
      const user = await createUser(second)
      const reuse = await user.client.rpc('claim_first_admin', { p_setup_code: scripted })
      expect(reuse.error?.message).toMatch(/^This shop has no setup code yet/)
    } finally {
      await second.close()
    }

    // Without it, a new random code in the data folder.
    const third = await start()
    try {
      expect(third.setup).toMatchObject({ status: 'ready', fromEnvironment: false })
      const code = third.setup.status === 'ready' ? third.setup.code : ''
      expect(code).toMatch(CODE_FORMAT)
      expect(await claim(third, code)).toEqual({ claimed: true })
    } finally {
      await third.close()
    }
  })
})
