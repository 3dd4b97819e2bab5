// Rewrites a few members of some rows in a JSON answer as Postgres printed it (json_agg of rows,
// or one row), leaving every other byte as it was. The catalogue cache uses it to bring a kept
// answer up to date after an order moved some products' stock (docs/decisions/049-patch-cached-pages-with-new-stock.md): reading the
// page again costs the database ~2 ms, the patch a scan of the text. Parsing and printing the
// whole answer again would not do: JavaScript prints numbers its own way (12.50 becomes 12.5), so
// the answer would no longer be what the database gives.

/** New values of one row's members, each as JSON text, by member name. */
export type RowPatch = Readonly<Record<string, string>>

export interface PatchShape {
  /** The members the answer shows of those the patches change (under their own names). */
  members: readonly string[]
  /** Whether the answer leaves out null members (Accept: …;nulls=stripped). */
  stripNulls: boolean
}

class NotRows extends Error {}

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d])

/**
 * `text` with the members `shape.members` of every top-level row whose "id" is a key of `rows`
 * replaced by that patch's values; null when the text is not an array of objects or one object,
 * or when a patched row does not show a member as `shape` says (then the answer must be read
 * again rather than guessed at).
 */
export function patchRows(
  text: string,
  rows: ReadonlyMap<string, RowPatch>,
  shape: PatchShape,
): string | null {
  let i = 0
  const edits: { start: number; end: number; value: string }[] = []

  const skipSpace = () => {
    while (i < text.length && SPACE.has(text.charCodeAt(i))) i++
  }
  const expect = (char: string) => {
    if (text[i] !== char) throw new NotRows()
    i++
  }
  const skipString = () => {
    let from = i + 1
    for (;;) {
      const quote = text.indexOf('"', from)
      if (quote < 0) throw new NotRows()
      let backslashes = 0
      while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++
      if (backslashes % 2 === 0) {
        i = quote + 1
        return
      }
      from = quote + 1
    }
  }
  const skipValue = () => {
    const first = text[i]
    if (first === '"') return skipString()
    if (first === '{' || first === '[') {
      let depth = 0
      while (i < text.length) {
        const char = text[i]
        if (char === '"') {
          skipString()
          continue
        }
        if (char === '{' || char === '[') depth++
        else if (char === '}' || char === ']') depth--
        i++
        if (depth === 0) return
      }
      throw new NotRows()
    }
    const start = i
    while (i < text.length && !',}]'.includes(text[i]!) && !SPACE.has(text.charCodeAt(i))) i++
    if (i === start) throw new NotRows()
  }

  const row = () => {
    expect('{')
    let id: unknown = undefined
    const found: { name: string; start: number; end: number }[] = []
    skipSpace()
    if (text[i] === '}') {
      i++
      return
    }
    for (;;) {
      skipSpace()
      if (text[i] !== '"') throw new NotRows()
      const keyStart = i
      skipString()
      const name = JSON.parse(text.slice(keyStart, i)) as string
      skipSpace()
      expect(':')
      skipSpace()
      const start = i
      skipValue()
      if (name === 'id') id = JSON.parse(text.slice(start, i))
      else if (shape.members.includes(name)) found.push({ name, start, end: i })
      skipSpace()
      if (text[i] === ',') {
        i++
        continue
      }
      expect('}')
      break
    }
    const patch = typeof id === 'string' ? rows.get(id) : undefined
    if (!patch) return
    for (const name of shape.members) {
      const value = patch[name]
      if (value === undefined) continue
      const members = found.filter((member) => member.name === name)
      // A stripped null (or a value that would now be stripped) changes the row's shape.
      if (members.length === 0 || (shape.stripNulls && value === 'null')) throw new NotRows()
      for (const member of members) edits.push({ start: member.start, end: member.end, value })
    }
  }

  try {
    skipSpace()
    if (text[i] === '[') {
      i++
      skipSpace()
      if (text[i] === ']') i++
      else
        for (;;) {
          skipSpace()
          row()
          skipSpace()
          if (text[i] === ',') {
            i++
            continue
          }
          expect(']')
          break
        }
    } else row()
    skipSpace()
    if (i !== text.length) return null
  } catch (error) {
    if (error instanceof NotRows || error instanceof SyntaxError) return null
    throw error
  }
  if (edits.length === 0) return text
  let out = ''
  let at = 0
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    out += text.slice(at, edit.start) + edit.value
    at = edit.end
  }
  return out + text.slice(at)
}
