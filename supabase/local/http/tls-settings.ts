// `npm start`'s HTTPS settings (README.md, "Running it in a shop"; docs/decisions/040-https-on-the-shops-network.md):
// HUMO_TLS=local (the shop's own authority, in the data folder), or HUMO_TLS_CERT with
// HUMO_TLS_KEY (a certificate the owner brings), and what to print about them: the addresses the
// shop's devices open, and where they get the authority to trust.
import { readFile } from 'node:fs/promises'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { CA_PAGE_PATH, type HumoTls } from './tls-server.ts'
import { machineNames, prepareLocalTls } from './tls.ts'

type Env = Record<string, string | undefined>

/** HUMO_TLS_NAMES: more names (a DNS name on the shop's network) for the local certificate. */
const extraNames = (env: Env, host: string) =>
  [...(env.HUMO_TLS_NAMES ?? '').split(','), host].map((name) => name.trim()).filter(Boolean)

/**
 * The TLS the settings ask for, or null for plain HTTP. Throws a message a person can act on for
 * settings that do not go together or files that cannot be read.
 */
export async function tlsFromEnvironment(
  env: Env,
  dataDir: string,
  host: string,
): Promise<(HumoTls & { local: boolean }) | null> {
  const mode = (env.HUMO_TLS ?? '').trim().toLowerCase()
  const certFile = env.HUMO_TLS_CERT?.trim() || null
  const keyFile = env.HUMO_TLS_KEY?.trim() || null
  if (mode !== '' && mode !== 'off' && mode !== 'local')
    throw new Error(`HUMO_TLS must be "local" or "off", got ${env.HUMO_TLS}`)
  if ((certFile === null) !== (keyFile === null))
    throw new Error('HUMO_TLS_CERT and HUMO_TLS_KEY go together: set both (PEM files) or neither')
  if (mode === 'local' && certFile)
    throw new Error(
      'HUMO_TLS=local makes its own certificate: unset HUMO_TLS_CERT/HUMO_TLS_KEY, or HUMO_TLS',
    )
  if (certFile && keyFile) {
    const read = async () => ({
      cert: await readFile(certFile, 'utf8'),
      key: await readFile(keyFile, 'utf8'),
    })
    let current = await read().catch((error: NodeJS.ErrnoException) => {
      throw new Error(`HUMO_TLS_CERT/HUMO_TLS_KEY cannot be read: ${error.message}`)
    })
    return {
      ...current,
      local: false,
      // A renewed certificate (certbot, acme.sh) is picked up without a restart.
      refresh: async () => {
        const next = await read()
        if (next.cert === current.cert && next.key === current.key) return null
        current = next
        return next
      },
    }
  }
  if (mode !== 'local') return null
  const dir = join(dataDir, 'tls')
  const names = () => machineNames(extraNames(env, host))
  const prepared = await prepareLocalTls({ dir, names: names() })
  let served = prepared.cert
  return {
    key: prepared.key,
    cert: prepared.cert,
    ca: prepared.ca,
    names: prepared.names,
    local: true,
    // A new address (the shop's router gave another one) or the year's end: a new certificate.
    refresh: async () => {
      const next = await prepareLocalTls({ dir, names: names() })
      if (next.cert === served) return null
      served = next.cert
      return next
    },
  }
}

/** http(s)://address:port for each address of the machine a device on its network can open. */
export function networkUrls(scheme: 'http' | 'https', port: string | number): string[] {
  const urls: string[] = []
  for (const list of Object.values(networkInterfaces()))
    for (const entry of list ?? [])
      if (!entry.internal && entry.family === 'IPv4')
        urls.push(`${scheme}://${entry.address}:${port}`)
  return urls
}

/** What `npm start` prints about HTTPS and the shop's network, line by line. */
export function startMessages(options: {
  tls: (HumoTls & { local: boolean }) | null
  host: string
  port: string
}): string[] {
  const { tls, host, port } = options
  const scheme = tls ? 'https' : 'http'
  const everywhere = host === '0.0.0.0' || host === '::'
  const lines: string[] = []
  const urls = everywhere ? networkUrls(scheme, port) : []
  if (urls.length) lines.push(`On the shop's network: ${urls.join('  ')}`)
  if (!everywhere && !['127.0.0.1', 'localhost', '::1'].includes(host))
    lines.push(
      `On the shop's network: ${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    )
  if (!tls && (everywhere || urls.length))
    lines.push(
      'Other devices need HTTPS to use the shop (offline, install, checkout): start it with ' +
        'HUMO_TLS=local (README.md, "Running it in a shop").',
    )
  if (tls?.local && tls.ca) {
    const page = (urls[0] ?? `https://localhost:${port}`).replace(/^https:/, 'http:')
    lines.push(
      `Each tablet or phone trusts this shop's certificate once: open ${page}${CA_PAGE_PATH} ` +
        `on it (SHA-256 ${tls.ca.fingerprint})`,
    )
  }
  if (tls && !everywhere && ['127.0.0.1', 'localhost', '::1'].includes(host))
    lines.push("Only this computer can open it: start with HOST=0.0.0.0 for the shop's devices.")
  return lines
}
