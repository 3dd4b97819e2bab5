// Issue 27: HTTPS on the shop's network. The local authority and its server certificate (names
// and addresses, kept across restarts, made again when the addresses change or it nears its end),
// and the server's one port: HTTPS, plain HTTP redirected, the authority at /humo-ca.crt and
// /humo-ca.
import { X509Certificate } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { hostname, networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHumoBackend, type HumoBackend } from '../server'
import {
  CA_KEY_FILE,
  certificateNames,
  machineNames,
  prepareLocalTls,
  SERVER_KEY_FILE,
  type LocalTls,
} from './tls'

const NAMES = [
  'humo-test',
  'humo-test.local',
  'localhost',
  '192.0.2.7',
  '2001:db8::7',
  '127.0.0.1',
  '::1',
]
const DAY = 24 * 60 * 60 * 1000

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'humo-tls-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the local authority and its server certificate', () => {
  let first: LocalTls

  it('certifies every name and address, signed by an authority of its own', async () => {
    first = await prepareLocalTls({ dir: join(dir, 'a'), names: NAMES })
    expect(first.createdAuthority).toBe(true)
    expect(first.issued).toBe(true)
    expect(certificateNames(first.cert).sort()).toEqual([...NAMES].sort())
    const ca = new X509Certificate(first.ca.pem)
    const leaf = new X509Certificate(first.cert)
    expect(ca.ca).toBe(true)
    expect(leaf.ca).toBe(false)
    expect(leaf.verify(ca.publicKey)).toBe(true)
    expect(leaf.checkIssued(ca)).toBe(true)
    expect(leaf.keyUsage).toContain('1.3.6.1.5.5.7.3.1') // serverAuth
    expect(first.ca.der.equals(ca.raw)).toBe(true)
    expect(first.ca.fingerprint).toBe(ca.fingerprint256)
    // The keys are the machine owner's alone.
    expect((await stat(join(dir, 'a', CA_KEY_FILE))).mode & 0o077).toBe(0)
    expect((await stat(join(dir, 'a', SERVER_KEY_FILE))).mode & 0o077).toBe(0)
  })

  it('keeps the authority and the certificate across restarts', async () => {
    const again = await prepareLocalTls({ dir: join(dir, 'a'), names: NAMES })
    expect(again.createdAuthority).toBe(false)
    expect(again.issued).toBe(false)
    expect(again.ca.fingerprint).toBe(first.ca.fingerprint)
    expect(again.cert).toBe(first.cert)
  })

  it('makes the certificate again when the addresses change, with the same authority', async () => {
    const moved = NAMES.filter((name) => name !== '192.0.2.7').concat('198.51.100.9')
    const next = await prepareLocalTls({ dir: join(dir, 'a'), names: moved })
    expect(next.issued).toBe(true)
    expect(next.createdAuthority).toBe(false)
    expect(next.ca.fingerprint).toBe(first.ca.fingerprint)
    expect(certificateNames(next.cert)).toContain('198.51.100.9')
    expect(certificateNames(next.cert)).not.toContain('192.0.2.7')
    expect(new X509Certificate(next.cert).verify(new X509Certificate(first.ca.pem).publicKey)).toBe(
      true,
    )
    // A new serial: browsers refuse two certificates of one issuer with the same serial.
    expect(new X509Certificate(next.cert).serialNumber).not.toBe(
      new X509Certificate(first.cert).serialNumber,
    )
  })

  it('makes the certificate again as it nears its end', async () => {
    const before = await prepareLocalTls({ dir: join(dir, 'a'), names: NAMES })
    const later = await prepareLocalTls({
      dir: join(dir, 'a'),
      names: NAMES,
      now: new Date(Date.now() + 380 * DAY),
    })
    expect(later.issued).toBe(true)
    expect(later.ca.fingerprint).toBe(first.ca.fingerprint)
    expect(Date.parse(new X509Certificate(later.cert).validTo)).toBeGreaterThan(
      Date.parse(new X509Certificate(before.cert).validTo),
    )
  })

  it("names the machine's hostname, localhost and every non-internal address", () => {
    const names = machineNames(['shop.lan'])
    expect(names).toContain('localhost')
    expect(names).toContain('127.0.0.1')
    expect(names).toContain('::1')
    expect(names).toContain('shop.lan')
    const host = hostname().toLowerCase()
    if (/^[a-z0-9-]+$/.test(host))
      expect(names).toEqual(expect.arrayContaining([host, `${host}.local`]))
    for (const entry of Object.values(networkInterfaces()).flat())
      if (entry && !entry.internal && entry.family === 'IPv4')
        expect(names).toContain(entry.address)
  })
})

type Answer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function get(
  url: string,
  options: { ca?: string; method?: string; host?: string } = {},
): Promise<Answer> {
  const target = new URL(url)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: options.method ?? 'GET',
        ...(options.ca ? { ca: options.ca } : {}),
        ...(options.host ? { headers: { host: options.host } } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('the server with HUMO_TLS=local', () => {
  let backend: HumoBackend
  let tls: LocalTls
  let port: string

  beforeAll(async () => {
    tls = await prepareLocalTls({ dir: join(dir, 'server'), names: NAMES })
    backend = await startHumoBackend({ quiet: true, tls: { ...tls, names: tls.names } })
    port = new URL(backend.url).port
  }, 120_000)
  afterAll(async () => {
    await backend?.close()
  })

  it('speaks HTTPS with the certificate, and tells the app its backend is HTTPS', async () => {
    expect(backend.url).toMatch(/^https:\/\//)
    const answer = await get(`https://127.0.0.1:${port}/humo-config.json`, { ca: tls.ca.pem })
    expect(answer.status).toBe(200)
    expect((JSON.parse(answer.body.toString()) as { supabaseUrl: string }).supabaseUrl).toBe(
      `https://127.0.0.1:${port}`,
    )
    expect(answer.headers['strict-transport-security']).toBeTruthy()
    // The same port over IPv6's loopback, named in the certificate too.
    const six = await get(`https://[::1]:${port}/humo-config.json`, { ca: tls.ca.pem }).catch(
      (error: NodeJS.ErrnoException) => error,
    )
    if (!(six instanceof Error)) expect(six.status).toBe(200)
  })

  it('redirects plain HTTP on the same port to HTTPS', async () => {
    const menu = await get(`http://127.0.0.1:${port}/menu/all?q=kush`)
    expect(menu.status).toBe(301)
    expect(menu.headers.location).toBe(`https://127.0.0.1:${port}/menu/all?q=kush`)
    const post = await get(`http://127.0.0.1:${port}/rest/v1/rpc/place_order`, { method: 'POST' })
    expect(post.status).toBe(308)
    expect(post.headers.location).toBe(`https://127.0.0.1:${port}/rest/v1/rpc/place_order`)
    const hostile = await get(`http://127.0.0.1:${port}/menu`, { host: '"><script>' })
    expect(hostile.status).toBe(400)
  })

  it("serves the authority's certificate at /humo-ca.crt, over HTTP and HTTPS", async () => {
    for (const url of [
      `http://127.0.0.1:${port}/humo-ca.crt`,
      `https://127.0.0.1:${port}/humo-ca.crt`,
    ]) {
      const answer = await get(url, { ca: tls.ca.pem })
      expect(answer.status).toBe(200)
      expect(answer.headers['content-type']).toBe('application/x-x509-ca-cert')
      const served = new X509Certificate(answer.body)
      expect(served.ca).toBe(true)
      expect(served.fingerprint256).toBe(tls.ca.fingerprint)
    }
    expect((await get(`http://127.0.0.1:${port}/humo-ca.crt`, { method: 'POST' })).status).toBe(405)
  })

  it('explains at /humo-ca how to trust it, with its fingerprint and the HTTPS addresses', async () => {
    const answer = await get(`http://127.0.0.1:${port}/humo-ca`)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
    const page = answer.body.toString()
    expect(page).toContain(tls.ca.fingerprint)
    expect(page).toContain('iPadOS')
    expect(page).toContain('Android')
    expect(page).toContain(`https://127.0.0.1:${port}/`)
    expect(page).toContain(`https://[2001:db8::7]:${port}/`)
  })
})
