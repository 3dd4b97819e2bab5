import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { StarRating } from './star-rating'

/** The width of the filled stars' viewport, in the rating's 136-unit view box. */
function filledWidth(markup: string): number {
  const inner = /<svg width="([\d.]+)" height="24">/.exec(markup)
  if (!inner?.[1]) throw new Error(`no filled viewport in ${markup}`)
  return Number(inner[1])
}

describe('StarRating', () => {
  it('is one image read out as its rating, in four elements', () => {
    const markup = renderToStaticMarkup(<StarRating rating={4.8} />)
    expect(markup).toContain('role="img"')
    expect(markup).toContain('aria-label="Rated 4.8 out of 5"')
    expect(markup.match(/<(svg|path)\b/g)).toHaveLength(4)
    // 14 px stars: five of them and four gaps.
    expect(markup).toMatch(/^<svg[^>]* width="79.33\d*" height="14" viewBox="0 0 136 24"/)
  })

  it('fills whole stars up to the rating and part of the star it falls in', () => {
    const width = (rating: number) =>
      filledWidth(renderToStaticMarkup(<StarRating rating={rating} />))
    expect(width(0)).toBe(0)
    expect(width(3)).toBe(84) // three stars of 28 units (24 and the gap)
    // 4.5: four stars, then half of the fifth's drawn width (x 2.5 to 21.5 of its 24 units).
    expect(width(4.5)).toBeCloseTo(4 * 28 + 2.5 + 9.5)
    expect(width(5)).toBeGreaterThanOrEqual(136)
  })

  it('clamps a rating outside 0–5', () => {
    expect(renderToStaticMarkup(<StarRating rating={7} />)).toContain('Rated 5.0 out of 5')
    const none = renderToStaticMarkup(<StarRating rating={-1} />)
    expect(none).toContain('Rated 0.0 out of 5')
    expect(filledWidth(none)).toBe(0)
  })
})
