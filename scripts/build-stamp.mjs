// Tells whether dist/ was built from the sources as they are now, so `npm start` builds only
// when something changed.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const INPUTS = [
  'src',
  'sw',
  'public',
  'index.html',
  'vite.config.ts',
  'panda.config.ts',
  'package-lock.json',
]

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(full, out)
    else out.push(full)
  }
}

export function sourceHash(root) {
  const files = []
  for (const input of INPUTS) {
    const full = path.join(root, input)
    if (!existsSync(full)) continue
    if (statSync(full).isDirectory()) walk(full, files)
    else files.push(full)
  }
  const hash = createHash('sha256')
  for (const file of files.sort()) {
    if (file.endsWith('route-tree.gen.ts')) continue
    hash.update(path.relative(root, file)).update(readFileSync(file))
  }
  return hash.digest('hex')
}

const stampFile = (root) => path.join(root, 'dist', '.humo-build-stamp')

export function isBuildFresh(root) {
  const stamp = stampFile(root)
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === sourceHash(root)
}

export function writeBuildStamp(root) {
  writeFileSync(stampFile(root), sourceHash(root))
}
