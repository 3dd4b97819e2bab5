// The row patcher the catalogue cache uses after an order (docs/decisions/049-patch-cached-pages-with-new-stock.md): it rewrites only
// the named members of the named rows and leaves every other byte as Postgres printed it.
import { describe, expect, it } from 'vitest'
import { patchRows } from './json-row-patch.ts'

const members = ['quantity_available', '_modified']
const shape = { members, stripNulls: false }
const patch = (id: string, quantity: string, modified = '"2026-11-27T10:00:00.5+00:00"') =>
  new Map([[id, { quantity_available: quantity, _modified: modified }]])

describe('patchRows', () => {
  it('rewrites the named rows only, keeping the rest byte for byte', () => {
    const text =
      '[{"id":"a","price":12.50,"quantity_available":7,"_modified":"2026-11-26T09:00:00+00:00"}, \n' +
      ' {"id":"b","price":1.10,"quantity_available":3,"_modified":"2026-11-26T09:00:01+00:00"}]'
    expect(patchRows(text, patch('b', '2'), shape)).toBe(
      '[{"id":"a","price":12.50,"quantity_available":7,"_modified":"2026-11-26T09:00:00+00:00"}, \n' +
        ' {"id":"b","price":1.10,"quantity_available":2,"_modified":"2026-11-27T10:00:00.5+00:00"}]',
    )
    // Nothing to patch: the same text.
    expect(patchRows(text, patch('c', '2'), shape)).toBe(text)
    expect(patchRows('[]', patch('c', '2'), shape)).toBe('[]')
  })

  it('is not fooled by strings that look like members or rows, nor by nested rows', () => {
    const tricky = '{\\"id\\":\\"b\\",\\"quantity_available\\":9} ] } [ \\\\'
    const text =
      `[{"id":"a","description":"${tricky}","quantity_available":1,"_modified":"x",` +
      `"categories":{"id":"b","quantity_available":5,"_modified":"y"}}]`
    const patched = patchRows(text, patch('a', '0', '"z"'), shape)
    expect(JSON.parse(patched!)).toEqual([
      {
        id: 'a',
        description: JSON.parse(`"${tricky}"`) as string,
        quantity_available: 0,
        _modified: 'z',
        categories: { id: 'b', quantity_available: 5, _modified: 'y' },
      },
    ])
    // The nested row is not a row of the answer: patching "b" changes nothing.
    expect(patchRows(text, patch('b', '0'), shape)).toBe(text)
  })

  it('patches a single-object answer and members shown twice', () => {
    const text = '{"id":"a","quantity_available":4,"_modified":"x","quantity_available":4}'
    expect(patchRows(text, patch('a', '3', '"y"'), shape)).toBe(
      '{"id":"a","quantity_available":3,"_modified":"y","quantity_available":3}',
    )
  })

  it('gives up (null) when a patched row does not show a member as the shape says', () => {
    // A member the answer should show is missing (e.g. stripped because it was null).
    expect(patchRows('[{"id":"a","_modified":"x"}]', patch('a', '3'), shape)).toBeNull()
    // With nulls stripped, a value that becomes null would have to disappear.
    expect(
      patchRows('[{"id":"a","quantity_available":4,"_modified":"x"}]', patch('a', 'null'), {
        members,
        stripNulls: true,
      }),
    ).toBeNull()
    // Not rows at all, or broken text.
    expect(patchRows('"text"', patch('a', '3'), shape)).toBeNull()
    expect(patchRows('[{"id":"a","quantity_available":4', patch('a', '3'), shape)).toBeNull()
    expect(patchRows('[{"id":"a"} x', patch('a', '3'), shape)).toBeNull()
  })
})
