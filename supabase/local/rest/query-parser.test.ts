// @vitest-environment node
// Unit tests of the PostgREST URL grammar, without a database.
import { describe, expect, it } from 'vitest'
import { PostgrestError } from '../request/postgrest-errors.ts'
import { parseLogicTree, parseOrder, parseReadRequest, parseSelect } from './query-parser.ts'

describe('parseSelect', () => {
  it('reads columns, aliases, casts and nested embeds with hints', () => {
    expect(
      parseSelect(
        'id, name:title, price::text, brand:brands!products_brand_id_fkey(id,name), product_media!inner(*)',
      ),
    ).toEqual([
      { kind: 'column', name: 'id', alias: null, cast: null },
      { kind: 'column', name: 'title', alias: 'name', cast: null },
      { kind: 'column', name: 'price', alias: null, cast: 'text' },
      {
        kind: 'embed',
        relation: 'brands',
        alias: 'brand',
        hint: 'products_brand_id_fkey',
        inner: false,
        select: [
          { kind: 'column', name: 'id', alias: null, cast: null },
          { kind: 'column', name: 'name', alias: null, cast: null },
        ],
      },
      {
        kind: 'embed',
        relation: 'product_media',
        alias: null,
        hint: null,
        inner: true,
        select: [{ kind: 'star' }],
      },
    ])
  })

  it('rejects malformed select lists with PGRST100', () => {
    expect(() => parseSelect('id,(name')).toThrow(PostgrestError)
    expect(() => parseSelect('brands(id')).toThrow(/failed to parse select/)
  })
})

describe('filters and logic trees', () => {
  it('reads operators, negation, lists with quoted values, and embedded paths', () => {
    const request = parseReadRequest(
      new URLSearchParams([
        ['price', 'gte.10.5'],
        ['slug', 'in.(a,"b,c")'],
        ['name', 'not.ilike.*kush*'],
        ['product_media.is_primary', 'is.true'],
        ['product_media.order', 'display_order.desc.nullslast'],
        ['limit', '12'],
        ['offset', '24'],
      ]),
    )
    expect(request.options.get('')).toEqual({
      conditions: [
        { kind: 'filter', column: 'price', operator: 'gte', negate: false, value: '10.5' },
        { kind: 'filter', column: 'slug', operator: 'in', negate: false, value: ['a', 'b,c'] },
        { kind: 'filter', column: 'name', operator: 'ilike', negate: true, value: '*kush*' },
      ],
      order: [],
      limit: 12,
      offset: 24,
    })
    expect(request.options.get('product_media')).toEqual({
      conditions: [
        { kind: 'filter', column: 'is_primary', operator: 'is', negate: false, value: 'true' },
      ],
      order: [{ column: 'display_order', direction: 'desc', nulls: 'last' }],
      limit: null,
      offset: null,
    })
  })

  it('reads nested and/or trees', () => {
    expect(parseLogicTree('or(a.eq.1,and(b.gt.2,c.not.is.null),name.eq."x,y")')).toEqual({
      kind: 'logic',
      operator: 'or',
      negate: false,
      conditions: [
        { kind: 'filter', column: 'a', operator: 'eq', negate: false, value: '1' },
        {
          kind: 'logic',
          operator: 'and',
          negate: false,
          conditions: [
            { kind: 'filter', column: 'b', operator: 'gt', negate: false, value: '2' },
            { kind: 'filter', column: 'c', operator: 'is', negate: true, value: 'null' },
          ],
        },
        { kind: 'filter', column: 'name', operator: 'eq', negate: false, value: 'x,y' },
      ],
    })
  })

  it('rejects unknown operators and bad limits', () => {
    expect(() => parseReadRequest(new URLSearchParams('price=between.1.2'))).toThrow(
      /failed to parse filter/,
    )
    expect(() => parseReadRequest(new URLSearchParams('limit=ten'))).toThrow(/limit/)
    expect(() => parseOrder('price.sideways')).toThrow(/order/)
  })
})
