import { describe, expect, it } from 'vitest'
import { weightLabel } from './potency'
import { galleryMedia, primaryImage, stockLevel, stockWords, videoSource } from './product-media'

const media = (id: string, type: 'image' | 'video', displayOrder: number, isPrimary = false) => ({
  id,
  path: `${id}.${type === 'image' ? 'webp' : 'mp4'}`,
  type,
  isPrimary,
  displayOrder,
})

describe('product media', () => {
  it('orders the gallery videos first, then images, by display order, at most 4', () => {
    const product = {
      media: [
        media('i2', 'image', 2),
        media('v1', 'video', 5),
        media('i0', 'image', 0),
        media('i1', 'image', 1),
        media('i3', 'image', 3),
      ],
    }
    expect(galleryMedia(product).map((m) => m.id)).toEqual(['v1', 'i0', 'i1', 'i2'])
    expect(
      primaryImage({ media: [media('a', 'image', 0), media('b', 'image', 1, true)] })?.id,
    ).toBe('b')
  })

  it('plays mp4, mov and webm with a poster frame and refuses other formats', () => {
    expect(videoSource('https://x/a.MP4')).toEqual({
      src: 'https://x/a.MP4#t=0.001',
      type: 'video/mp4',
    })
    expect(videoSource('https://x/a.mov', false)).toEqual({
      src: 'https://x/a.mov',
      type: 'video/mp4',
    })
    expect(videoSource('https://x/a.webm')?.type).toBe('video/webm')
    expect(videoSource('https://x/a.avi')).toBeNull()
  })

  it('tells stock levels apart and labels weights', () => {
    expect(stockLevel({ stock: 0, unlimited: true })).toBe('unlimited')
    expect(stockLevel({ stock: 11, unlimited: false })).toBe('plenty')
    expect(stockLevel({ stock: 10, unlimited: false })).toBe('low')
    expect(stockLevel({ stock: null, unlimited: false })).toBe('out')
    expect(weightLabel(3.5)).toBe('3.5g')
    expect(weightLabel(28)).toBe('28g')
    expect(weightLabel(null)).toBeNull()
  })
})

describe('stock in words (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md)', () => {
  const p = (stock: number | null, unlimited = false) => ({ stock, unlimited })

  it('says how many are left in the low band, not only by colour', () => {
    expect(stockWords(p(3))).toBe('Only 3 left')
    expect(stockWords(p(1))).toBe('Only 1 left')
    expect(stockWords(p(10))).toBe('Only 10 left')
  })

  it('says in stock and sold out in words', () => {
    expect(stockWords(p(11))).toBe('In Stock')
    expect(stockWords(p(0, true))).toBe('In Stock')
    expect(stockWords(p(0))).toBe('Out of Stock')
    expect(stockWords(p(null))).toBe('Out of Stock')
  })
})
