// verifyJwt keeps tokens it verified (docs/decisions/045-order-path-costs.md): a kept token is still refused once it
// expires, a wrong signature or another secret is never taken from what was kept, and a caller
// changing the claims it got does not change what the next caller gets.
import { SignJWT } from 'jose'
import { afterEach, expect, it, vi } from 'vitest'
import { verifyJwt } from './jwt-keys.ts'

const secret = new TextEncoder().encode('a-test-secret-of-at-least-32-characters!')

const sign = (key: Uint8Array, expiresAt: number) =>
  new SignJWT({ role: 'authenticated', sub: 'user-1' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(key)

afterEach(() => {
  vi.useRealTimers()
})

it('refuses a token it verified before once it has expired', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  const now = Math.floor(Date.now() / 1000)
  const token = await sign(secret, now + 60)
  expect((await verifyJwt(secret, token)).claims.sub).toBe('user-1')
  expect((await verifyJwt(secret, token)).role).toBe('authenticated')
  vi.setSystemTime((now + 61) * 1000)
  await expect(verifyJwt(secret, token)).rejects.toThrow('JWT expired')
})

it('never takes a kept token for another secret, nor its claims for a copy', async () => {
  const token = await sign(secret, Math.floor(Date.now() / 1000) + 3600)
  const first = await verifyJwt(secret, token)
  first.claims.sub = 'someone-else'
  expect((await verifyJwt(secret, token)).claims.sub).toBe('user-1')
  const other = new TextEncoder().encode('another-test-secret-of-32-characters-or-more')
  await expect(verifyJwt(other, token)).rejects.toThrow(/signature/)
  const [header, payload] = token.split('.')
  await expect(verifyJwt(secret, `${header}.${payload}.AAAA`)).rejects.toThrow(/signature/)
})
