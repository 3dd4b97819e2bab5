import { css } from 'styled-system/css'

// One star is 24 units wide; the five sit 4 units apart, in one path.
const STAR_PITCH = 28
const VIEW_WIDTH = 4 * STAR_PITCH + 24
const star = (x: number) =>
  `M${x + 12} 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L${x + 12} 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z`
const FIVE_STARS = [0, 1, 2, 3, 4].map((i) => star(i * STAR_PITCH)).join('')

/**
 * Five stars filled to the rating (0–5), read out as "Rated 4.8 out of 5".
 *
 * One SVG: the faint stars, and over them the same stars in a nested viewport as wide as the
 * rating (a nested SVG clips what overflows it). Not five SVGs with a gradient each: a menu shows
 * a rating on every card, and at 31 elements it was half of a card's elements, each parsed,
 * styled and laid out at every render of the grid.
 */
export function StarRating({ rating, size = 14 }: { rating: number; size?: number }) {
  const clamped = Math.max(0, Math.min(5, rating))
  // A part star fills that part of its drawn width (x 2.5 to 21.5 of its 24 units).
  const whole = Math.floor(clamped)
  const part = clamped - whole
  const filledUnits = whole * STAR_PITCH + (part > 0 ? 2.5 + part * 19 : 0)
  return (
    <svg
      role="img"
      aria-label={`Rated ${clamped.toFixed(1)} out of 5`}
      width={(size * VIEW_WIDTH) / 24}
      height={size}
      viewBox={`0 0 ${VIEW_WIDTH} 24`}
      className={css({ display: 'inline-block', flexShrink: 0, color: 'deal.solid' })}
    >
      <path d={FIVE_STARS} fill="currentColor" fillOpacity={0.2} />
      <svg width={filledUnits} height={24}>
        <path d={FIVE_STARS} fill="currentColor" />
      </svg>
    </svg>
  )
}
