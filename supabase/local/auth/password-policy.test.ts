// @vitest-environment node
// The new-password rules (NIST SP 800-63B, issue 23 finding 5) on their own: length in code
// points, bcrypt's 72-byte ceiling, the shipped common-password list, trivial runs, the address.
import { describe, expect, it } from 'vitest'
import { GoTrueError } from './gotrue-errors.ts'
import { TOO_COMMON, TOO_SHORT, checkNewPassword } from './password-policy.ts'

async function verdict(password: string, email = 'shopper@example.com') {
  try {
    await checkNewPassword(password, email)
    return 'ok'
  } catch (error) {
    if (!(error instanceof GoTrueError)) throw error
    return { status: error.status, code: error.code, message: error.message, ...error.extra }
  }
}

describe('checkNewPassword', () => {
  it('refuses fewer than 8 characters, counting code points (not UTF-16 units)', async () => {
    expect(await verdict('1234567')).toMatchObject({
      status: 422,
      code: 'weak_password',
      message: TOO_SHORT,
      weak_password: { reasons: ['length'] },
    })
    // 4 emoji are 8 UTF-16 units but 4 characters.
    expect(await verdict('🌿🌿🌿🌿')).toMatchObject({ message: TOO_SHORT })
    expect(await verdict('🌿🍃🌱🌾🌵🌴🌳🌲')).toBe('ok')
  })

  it.each([
    '123456',
    'password1',
    '12345678',
    'iloveyou',
    'Password123',
    'qwertyuiop',
    'abcdefgh',
    '87654321',
    'abcabcabc',
    'zzzzzzzzzzzz',
    'HumoShop',
  ])('refuses the common or trivial "%s"', async (password) => {
    expect(await verdict(password)).toMatchObject({
      status: 422,
      code: 'weak_password',
      weak_password: { reasons: [expect.stringMatching(/length|pwned/) as string] },
    })
  })

  it('refuses the address and its name part', async () => {
    expect(await verdict('Shopper@Example.com')).toMatchObject({ message: TOO_COMMON })
    expect(await verdict('shopper', 'shopper@example.com')).toMatchObject({ code: 'weak_password' })
    expect(await verdict('longshoppername', 'longshoppername@example.com')).toMatchObject({
      message: TOO_COMMON,
    })
  })

  it('refuses more than 72 bytes instead of letting bcrypt cut it', async () => {
    expect(await verdict('a'.repeat(60) + 'é'.repeat(7))).toMatchObject({
      status: 400,
      code: 'validation_failed',
    })
    expect(await verdict('x'.repeat(72))).toMatchObject({ code: 'weak_password' }) // a run
    expect(await verdict('correct horse battery staple '.repeat(2).slice(0, 72))).toBe('ok')
  })

  it('accepts a passphrase with no composition rules', async () => {
    expect(await verdict('correct horse battery')).toBe('ok')
    expect(await verdict('all lower case words')).toBe('ok')
  })
})
