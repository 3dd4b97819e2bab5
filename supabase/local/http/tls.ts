// HTTPS for the shop's own network (issue 27, docs/decisions/040-https-on-the-shops-network.md): with HUMO_TLS=local the server
// keeps a certificate authority of its own in the data folder and a server certificate, signed by
// it, for the machine's names and addresses; devices trust the authority once (/humo-ca) and then
// reach the shop over HTTPS at any of those addresses, a secure context where the service worker,
// crypto.subtle and crypto.randomUUID exist. HUMO_TLS_CERT/HUMO_TLS_KEY serve a certificate the
// owner brings instead. The certificates are made with node-forge (its key generation uses
// Node's native RSA), never by hand.
import { createHash, randomBytes, X509Certificate } from 'node:crypto'
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { hostname as osHostname, networkInterfaces } from 'node:os'
import { isIP } from 'node:net'
import { join } from 'node:path'
import forge from 'node-forge'

/** The certificate's file names inside the data folder's tls/ folder. */
export const CA_CERT_FILE = 'humo-ca.crt'
export const CA_KEY_FILE = 'humo-ca.key'
export const SERVER_CERT_FILE = 'server.crt'
export const SERVER_KEY_FILE = 'server.key'

const DAY_MS = 24 * 60 * 60 * 1000
/** The authority lives long: every device trusts it by hand, once. */
const CA_DAYS = 3650
/**
 * The server certificate: 397 days, under Apple's and the CA/Browser Forum's 398-day ceiling;
 * made again 30 days before it ends (at a start or during the server's periodic check).
 */
const SERVER_DAYS = 397
const RENEW_BEFORE_DAYS = 30

export type LocalAuthority = {
  /** The authority's certificate, PEM and DER (what /humo-ca.crt serves). */
  pem: string
  der: Buffer
  /** SHA-256 of the DER, as AA:BB:… (what iOS and Android show in the certificate's details). */
  fingerprint: string
  /** Its common name, as the device lists it among its profiles or credentials. */
  name: string
}

export type LocalTls = {
  key: string
  cert: string
  ca: LocalAuthority
  /** The DNS names and IP addresses the server certificate names. */
  names: string[]
  /** Whether this call made a new server certificate (first start, new address, near its end). */
  issued: boolean
  /** Whether this call made the authority (first start only). */
  createdAuthority: boolean
}

/** An IP address in one spelling ("::1", "fe80::1"), so a certificate's and the machine's compare. */
function canonicalIp(address: string): string {
  if (isIP(address) !== 6) return address
  return new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1)
}

/** A DNS label sequence a certificate may name (the hostname may hold anything). */
const DNS_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

/**
 * The names and addresses the machine is reached at: its hostname (and hostname.local, what
 * mDNS answers on a shop's Wi-Fi), localhost, every non-internal IPv4 and IPv6 address, and the
 * loopback addresses; plus `extra` (HUMO_TLS_NAMES, the HOST the server binds).
 */
export function machineNames(extra: readonly string[] = []): string[] {
  const names = new Set<string>()
  const add = (raw: string) => {
    const value = raw.trim().toLowerCase()
    if (!value || value === '0.0.0.0' || value === '::') return
    if (isIP(value)) names.add(canonicalIp(value))
    else if (DNS_NAME.test(value)) names.add(value)
  }
  const host = osHostname()
  add(host)
  if (!host.includes('.')) add(`${host}.local`)
  add('localhost')
  for (const list of Object.values(networkInterfaces()))
    for (const entry of list ?? []) if (!entry.internal) add(entry.address)
  add('127.0.0.1')
  add('::1')
  for (const name of extra) add(name)
  return [...names]
}

/** AA:BB:… of the SHA-256 of a certificate's DER. */
export function fingerprintOf(der: Buffer): string {
  return createHash('sha256')
    .update(der)
    .digest('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:')
}

/**
 * base64 of the SHA-256 of a certificate's public key (SubjectPublicKeyInfo): what Chromium's
 * --ignore-certificate-errors-spki-list takes (the e2e test's browser trusts the shop with it).
 */
export function spkiHash(pem: string): string {
  const publicKey = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' })
  return createHash('sha256').update(publicKey).digest('base64')
}

/** A positive serial number, random so that no two certificates of the authority share one. */
const serial = () => `01${randomBytes(15).toString('hex')}`

function authorityOf(pem: string): LocalAuthority {
  const cert = new X509Certificate(pem)
  const name = /^CN=(.*)$/m.exec(cert.subject)?.[1] ?? 'Humo'
  return { pem, der: cert.raw, fingerprint: fingerprintOf(cert.raw), name }
}

function generateKeys(): Promise<forge.pki.rsa.KeyPair> {
  // With a callback and workers: -1, node-forge hands the work to Node's native generator.
  return new Promise((resolve, reject) =>
    forge.pki.rsa.generateKeyPair({ bits: 2048, workers: -1 }, (error, keys) =>
      error ? reject(error) : resolve(keys),
    ),
  )
}

async function createAuthority(now: Date): Promise<{ cert: string; key: string }> {
  const keys = await generateKeys()
  const cert = forge.pki.createCertificate()
  cert.publicKey = keys.publicKey
  cert.serialNumber = serial()
  cert.validity.notBefore = new Date(now.getTime() - DAY_MS)
  cert.validity.notAfter = new Date(now.getTime() + CA_DAYS * DAY_MS)
  const label =
    osHostname()
      .replace(/[^\w.-]/g, '')
      .slice(0, 40) || 'this machine'
  const subject = [
    { name: 'commonName', value: `Humo local authority (${label})` },
    { name: 'organizationName', value: 'Humo' },
  ]
  cert.setSubject(subject)
  cert.setIssuer(subject)
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ])
  cert.sign(keys.privateKey, forge.md.sha256.create())
  return {
    cert: forge.pki.certificateToPem(cert),
    key: forge.pki.privateKeyToPem(keys.privateKey),
  }
}

async function createServerCertificate(
  authority: { cert: string; key: string },
  names: readonly string[],
  now: Date,
): Promise<{ cert: string; key: string }> {
  const caCert = forge.pki.certificateFromPem(authority.cert)
  const caKey = forge.pki.privateKeyFromPem(authority.key)
  const keys = await generateKeys()
  const cert = forge.pki.createCertificate()
  cert.publicKey = keys.publicKey
  cert.serialNumber = serial()
  cert.validity.notBefore = new Date(now.getTime() - DAY_MS)
  cert.validity.notAfter = new Date(now.getTime() + SERVER_DAYS * DAY_MS)
  const dns = names.find((name) => !isIP(name)) ?? 'localhost'
  cert.setSubject([{ name: 'commonName', value: dns }])
  cert.setIssuer(caCert.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: names.map((name) =>
        isIP(name) ? { type: 7, ip: name } : { type: 2, value: name },
      ),
    },
    { name: 'subjectKeyIdentifier' },
    {
      name: 'authorityKeyIdentifier',
      keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes(),
    },
  ])
  cert.sign(caKey, forge.md.sha256.create())
  return {
    cert: forge.pki.certificateToPem(cert),
    key: forge.pki.privateKeyToPem(keys.privateKey),
  }
}

/** The DNS names and IP addresses a certificate names, in one spelling. */
export function certificateNames(pem: string): string[] {
  const san = new X509Certificate(pem).subjectAltName ?? ''
  return san
    .split(', ')
    .map((entry) => /^(?:DNS|IP Address):(.*)$/.exec(entry)?.[1])
    .filter((name): name is string => Boolean(name))
    .map((name) => (isIP(name) ? canonicalIp(name) : name.toLowerCase()))
}

/** Why the server certificate must be made again, or null when it still serves. */
function staleness(
  server: { cert: string; key: string } | null,
  authorityPem: string,
  names: readonly string[],
  now: Date,
): string | null {
  if (!server) return 'none yet'
  let cert: X509Certificate
  try {
    cert = new X509Certificate(server.cert)
  } catch {
    return 'unreadable'
  }
  if (!cert.verify(new X509Certificate(authorityPem).publicKey)) return 'another authority'
  if (Date.parse(cert.validTo) - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS) return 'near its end'
  const has = new Set(certificateNames(server.cert))
  if (names.some((name) => !has.has(name)) || has.size !== names.length) return 'new addresses'
  return null
}

const readIfThere = (path: string) =>
  readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw error
  })

/**
 * Written whole or not at all (a crash mid-write leaves the old file), readable by us only: the
 * keys, and the certificates too, as every file of the data folder (docs/decisions/052-private-data-folder.md); devices get
 * the authority's certificate from the server (/humo-ca.crt), never from the file.
 */
async function writeSecret(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`
  await writeFile(temp, text, { mode: 0o600 })
  await chmod(temp, 0o600)
  await rename(temp, path)
}

export type LocalTlsOptions = {
  /** The folder the authority and the server certificate live in (the data folder's tls/). */
  dir: string
  /** The names and addresses to certify; default machineNames(). */
  names?: readonly string[]
  now?: Date
}

/**
 * The authority (made on the first call, then kept) and a server certificate for `names`, made
 * again when the names or addresses changed, when it nears its end, or when it is missing.
 */
export async function prepareLocalTls(options: LocalTlsOptions): Promise<LocalTls> {
  const { dir } = options
  const now = options.now ?? new Date()
  const names = [...new Set(options.names ?? machineNames())]
  await mkdir(dir, { recursive: true, mode: 0o700 })
  let caCert = await readIfThere(join(dir, CA_CERT_FILE))
  let caKey = await readIfThere(join(dir, CA_KEY_FILE))
  let createdAuthority = false
  if (!caCert || !caKey) {
    // A half-written authority (one file of two) cannot sign: a new one; devices trust it again.
    const made = await createAuthority(now)
    await writeSecret(join(dir, CA_KEY_FILE), made.key)
    await writeSecret(join(dir, CA_CERT_FILE), made.cert)
    caCert = made.cert
    caKey = made.key
    createdAuthority = true
  }
  const serverCert = await readIfThere(join(dir, SERVER_CERT_FILE))
  const serverKey = await readIfThere(join(dir, SERVER_KEY_FILE))
  let server = serverCert && serverKey ? { cert: serverCert, key: serverKey } : null
  const issued = staleness(server, caCert, names, now) !== null
  if (issued) {
    server = await createServerCertificate({ cert: caCert, key: caKey }, names, now)
    await writeSecret(join(dir, SERVER_KEY_FILE), server.key)
    await writeSecret(join(dir, SERVER_CERT_FILE), server.cert)
  }
  return {
    key: server!.key,
    cert: server!.cert,
    ca: authorityOf(caCert),
    names,
    issued,
    createdAuthority,
  }
}
