import { describe, expect, it } from 'vitest'
import { semanticTokens } from './semantic-tokens'
import { tokens } from './tokens'

// WCAG 2.2 AA at the token level (docs/decisions/036-contrast-at-the-token-level.md): every pair the components put together
// reads at 4.5:1 (text) or stands out at 3:1 (control edges, focus rings), in both themes.

type Theme = 'base' | '_dark'
type Semantic = Record<string, Record<string, { value: Record<Theme, string> }>>
type Raw = Record<string, { value: string } | Record<string, { value: string }>>

const raw = tokens.colors as unknown as Raw
const semantic = semanticTokens.colors as unknown as Semantic

function hex(reference: string): string {
  const path = /^\{colors\.(.+)\}$/.exec(reference)?.[1]
  if (!path) return reference
  const [family, shade] = path.split('.') as [string, string | undefined]
  const entry = raw[family]
  const token = (shade ? (entry as Record<string, { value: string }>)[shade] : entry) as
    { value: string } | undefined
  if (!token) throw new Error(`no raw colour ${reference}`)
  return token.value
}

/** A semantic colour ("fg.muted") in a theme, as #rrggbb. */
function color(name: string, theme: Theme): string {
  const [group, key] = name.split('.') as [string, string]
  const token = semantic[group]?.[key]
  if (!token) throw new Error(`no semantic colour ${name}`)
  return hex(token.value[theme])
}

function luminance(value: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(value.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio, as axe rounds it (two decimals). */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return Math.floor(((hi + 0.05) / (lo + 0.05)) * 100) / 100
}

// The page backgrounds text sits on (bg.inverse has its own text colours; bg.overlay is a veil).
const SURFACES = ['bg.canvas', 'bg.surface', 'bg.muted', 'bg.subtle']
const TEXTS = ['fg.default', 'fg.muted', 'fg.subtle', 'accent.fg', 'deal.fg', 'danger.fg']

const pairs: { fg: string; bg: string; min: number }[] = [
  ...TEXTS.flatMap((fg) => SURFACES.map((bg) => ({ fg, bg, min: 4.5 }))),
  // Badges and notices: a tone's text on its own subtle background.
  { fg: 'accent.fg', bg: 'accent.subtle', min: 4.5 },
  { fg: 'deal.fg', bg: 'deal.subtle', min: 4.5 },
  { fg: 'danger.fg', bg: 'danger.subtle', min: 4.5 },
  { fg: 'fg.muted', bg: 'accent.subtle', min: 4.5 },
  // White text on the solid fills (buttons, Sale and Featured badges, ribbons), hovered too.
  ...['accent.solid', 'accent.solidHover', 'deal.solid', 'deal.solidHover', 'danger.solid'].map(
    (bg) => ({ fg: 'fg.onAccent', bg, min: 4.5 }),
  ),
  { fg: 'fg.onInverse', bg: 'bg.inverse', min: 4.5 },
  { fg: 'fg.onInverseMuted', bg: 'bg.inverse', min: 4.5 },
  // Control edges and focus rings (WCAG 1.4.11 non-text contrast).
  ...SURFACES.map((bg) => ({ fg: 'border.strong', bg, min: 3 })),
  ...SURFACES.map((bg) => ({ fg: 'accent.fg', bg, min: 3 })),
  // A checked checkbox or switch, the slider's range, on the card it sits on.
  ...['bg.canvas', 'bg.surface'].map((bg) => ({ fg: 'accent.solid', bg, min: 3 })),
]

describe('semantic colour pairs meet WCAG 2.2 AA contrast', () => {
  for (const theme of ['base', '_dark'] as const)
    it(`in the ${theme === 'base' ? 'light' : 'dark'} theme`, () => {
      const failing = pairs
        .map(({ fg, bg, min }) => {
          const ratio = contrast(color(fg, theme), color(bg, theme))
          return { pair: `${fg} on ${bg}`, ratio, min }
        })
        .filter(({ ratio, min }) => ratio < min)
        .map(({ pair, ratio, min }) => `${pair}: ${ratio}:1 (needs ${min}:1)`)
      expect(failing).toEqual([])
    })

  it('measures as axe does', () => {
    // The figures: white on the old deal orange, the old orange text on white.
    expect(contrast('#ffffff', '#e8791c')).toBe(2.92)
    expect(contrast('#c45e0f', '#ffffff')).toBe(4.23)
  })
})
