// Applies supabase/local/db/bootstrap.sql and every migration to a throwaway PostgreSQL 15 (Debian's
// package, the version hosted Supabase runs), then races two orders for the last unit in stock
// with real concurrent transactions — what PGlite, one connection at a time, cannot show.
// Part of `npm test`; installs Debian's postgresql when it is absent.
import { execFileSync, spawn } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  chmodSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const binDir = () => {
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return null
  const versions = readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
  const v = versions.includes('15') ? '15' : versions.sort().at(-1)
  return v ? path.join(base, v, 'bin') : null
}

if (!binDir()) {
  console.log("[humo] installing Debian's postgresql for the schema check…")
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
    stdio: 'inherit',
    env,
  })
}
const bin = binDir()
const asRoot = process.getuid?.() === 0
const work = mkdtempSync(path.join(tmpdir(), 'humo-pg-'))
chmodSync(work, 0o777)
const data = path.join(work, 'data')
const port = String(55000 + Math.floor(Math.random() * 2000))

// initdb and postgres refuse to run as root; run them as the postgres user then.
const asDb = (cmd, args, opts = {}) =>
  asRoot
    ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], opts)
    : execFileSync(cmd, args, opts)

const psql = (args, input) =>
  execFileSync(
    path.join(bin, 'psql'),
    ['-h', work, '-p', port, '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qtA', ...args],
    {
      input,
      encoding: 'utf8',
    },
  )

let failed = false
try {
  asDb(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust'], { stdio: 'ignore' })
  asDb(
    path.join(bin, 'pg_ctl'),
    [
      '-D',
      data,
      '-o',
      `-p ${port} -k ${work} -c listen_addresses='' -c wal_level=logical`,
      '-l',
      path.join(work, 'log'),
      '-w',
      'start',
    ],
    {
      stdio: 'ignore',
    },
  )
  const files = [
    path.join(root, 'supabase/local/db/bootstrap.sql'),
    path.join(root, 'supabase/local/db/bootstrap-realtime.sql'),
    ...readdirSync(path.join(root, 'supabase/migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => path.join(root, 'supabase/migrations', f)),
  ]
  for (const file of files) psql(['-f', file])
  console.log(
    `[humo] ${files.length - 2} migrations apply cleanly on PostgreSQL ${psql(['-c', 'show server_version']).trim()}`,
  )

  psql(
    [],
    `
    insert into categories (name, slug) values ('Edibles', 'edibles') on conflict do nothing;
    insert into products (id, name, slug, sku, price, quantity_available, is_active, category_id)
      select '11111111-1111-1111-1111-111111111111', 'Last Gummy', 'last-gummy', 'LG-1', 10, 1, true, id
      from categories where slug = 'edibles';`,
  )
  const order = `
    begin;
    set local role anon;
    select public.place_order(jsonb_build_object(
      'id', gen_random_uuid(), 'secret', repeat('s', 40),
      'customer', jsonb_build_object('email', 'a@b.co', 'firstName', 'A', 'lastName', 'B', 'phone', '4155550100'),
      'fulfilment', 'delivery', 'deliveryMethod', 'standard', 'paymentMethod', 'cash',
      'shippingAddress', jsonb_build_object('address1', '1820 Sunset Blvd', 'city', 'Los Angeles',
        'state', 'CA', 'zipCode', '90026'),
      'items', jsonb_build_array(jsonb_build_object('productId', '11111111-1111-1111-1111-111111111111', 'quantity', 1))
    )) ->> 'status';
    select pg_sleep(0.5);
    commit;`
  const orderFile = path.join(work, 'order.sql')
  writeFileSync(orderFile, order)
  const race = () =>
    new Promise((resolve) => {
      const child = spawn(path.join(bin, 'psql'), [
        '-h',
        work,
        '-p',
        port,
        '-U',
        'postgres',
        '-qtA',
        '-f',
        orderFile,
      ])
      let out = ''
      child.stdout.on('data', (d) => (out += d))
      child.on('exit', () => resolve(out.trim().split('\n')[0]))
    })
  const answers = (await Promise.all([race(), race()])).sort()
  const stock = psql(['-c', "select quantity_available from products where sku = 'LG-1'"]).trim()
  const orders = psql(['-c', 'select count(*) from orders']).trim()
  console.log(
    `[humo] two concurrent orders for the last unit: ${answers.join(', ')}; stock left ${stock}; orders ${orders}`,
  )
  if (answers.join() !== 'accepted,refused' || stock !== '0' || orders !== '1') {
    console.error('[humo] ✖ the last unit was not sold exactly once')
    failed = true
  }
} catch (error) {
  console.error(String(error.stderr ?? error.message ?? error))
  if (existsSync(path.join(work, 'log')))
    console.error(readFileSync(path.join(work, 'log'), 'utf8').slice(-2000))
  failed = true
} finally {
  try {
    asDb(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], { stdio: 'ignore' })
  } catch {
    // not started
  }
  rmSync(work, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
