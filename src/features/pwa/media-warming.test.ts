import { describe, expect, it } from 'vitest'
import { mayWarmMedia, warmMediaUrls } from './media-warming'

type Media = {
  id: string
  path: string
  type: 'image' | 'video'
  isPrimary: boolean
  displayOrder: number
}
const image = (path: string, displayOrder: number, isPrimary = false): Media => ({
  id: path,
  path,
  type: 'image',
  isPrimary,
  displayOrder,
})
const video = (path: string, displayOrder: number): Media => ({
  id: path,
  path,
  type: 'video',
  isPrimary: false,
  displayOrder,
})
const product = (createdAt: string, media: Media[]) => ({ createdAt, media })

const BACKEND = 'https://shop.supabase.co'
const url = (path: string) => `${BACKEND}/storage/v1/object/public/product_media/${path}`

describe('mayWarmMedia', () => {
  it('warms on a fast or unknown connection', () => {
    expect(mayWarmMedia(true, undefined)).toBe(true)
    expect(mayWarmMedia(true, {})).toBe(true)
    expect(mayWarmMedia(true, { effectiveType: '4g', saveData: false })).toBe(true)
    expect(mayWarmMedia(true, { effectiveType: '4g', type: 'wifi' })).toBe(true)
    expect(mayWarmMedia(true, { type: 'ethernet' })).toBe(true)
  })

  it('never warms offline', () => {
    expect(mayWarmMedia(false, undefined)).toBe(false)
    expect(mayWarmMedia(false, { effectiveType: '4g' })).toBe(false)
  })

  it('respects the data saver', () => {
    expect(mayWarmMedia(true, { effectiveType: '4g', saveData: true })).toBe(false)
  })

  it('skips slow connections', () => {
    for (const effectiveType of ['slow-2g', '2g', '3g'])
      expect(mayWarmMedia(true, { effectiveType })).toBe(false)
  })

  it('skips cellular and metered connections when the browser says so', () => {
    expect(mayWarmMedia(true, { effectiveType: '4g', type: 'cellular' })).toBe(false)
    expect(mayWarmMedia(true, { effectiveType: '4g', metered: true })).toBe(false)
  })
})

describe('warmMediaUrls', () => {
  it("takes each product's card image: the primary one, else the first by display order", () => {
    const urls = warmMediaUrls(
      [
        product('2026-01-02', [image('a/side.svg', 0), image('a/cover.svg', 1, true)]),
        product('2026-01-01', [image('b/second.png', 2), image('b/first.webp', 1)]),
      ],
      [],
      BACKEND,
    )
    expect(urls).toEqual([url('a/cover.svg'), url('b/first.webp')])
  })

  it('lists newest products first, then brand logos in the bucket', () => {
    const urls = warmMediaUrls(
      [product('2025-05-01', [image('old.svg', 0)]), product('2026-05-01', [image('new.svg', 0)])],
      [{ logoUrl: 'logos/kiva.png' }, { logoUrl: null }],
      BACKEND,
    )
    expect(urls).toEqual([url('new.svg'), url('old.svg'), url('logos/kiva.png')])
  })

  it('leaves out videos, products without images, duplicates and files outside the bucket', () => {
    const urls = warmMediaUrls(
      [
        product('2026-03-01', [video('c/clip.mp4', 0)]),
        product('2026-02-01', []),
        product('2026-01-01', [image('shared.svg', 0)]),
        product('2025-01-01', [image('shared.svg', 0)]),
        product('2024-01-01', [image('https://cdn.example.com/x.png', 0)]),
      ],
      [{ logoUrl: 'https://example.com/logo.png' }, { logoUrl: 'brand/teaser.webm' }],
      BACKEND,
    )
    expect(urls).toEqual([url('shared.svg')])
  })

  it('builds same-origin URLs when the backend serves the app', () => {
    expect(warmMediaUrls([product('2026-01-01', [image('p/a b.svg', 0)])], [], '')).toEqual([
      '/storage/v1/object/public/product_media/p/a%20b.svg',
    ])
  })

  it('stops at the limit', () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      product(`2026-01-${String(10 + i)}`, [image(`p${i}.svg`, 0)]),
    )
    const urls = warmMediaUrls(many, [], BACKEND, 3)
    expect(urls).toEqual([url('p9.svg'), url('p8.svg'), url('p7.svg')])
  })
})
