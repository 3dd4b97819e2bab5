// Potency as California labels it (issue 31): milligrams per package and per serving for a
// product that states milligrams, percent with one decimal otherwise, whatever its category.
import { describe, expect, it } from 'vitest'
import {
  cardFacts,
  cardFactsLines,
  labelledInMg,
  mgText,
  netWeightText,
  potencyOf,
  potencyText,
  sizeLabel,
  type PotencyFields,
} from './potency'

const none = { thc: null, cbd: null, thcMg: null, cbdMg: null, servings: null }
const product = (over: Partial<PotencyFields & { weightGrams: number | null }>) => ({
  ...none,
  weightGrams: null,
  ...over,
})
const texts = (p: PotencyFields, card = false) => potencyOf(p, card).map(potencyText)

describe('potency', () => {
  it('labels gummies per package and per serving, not as a percentage of their weight', () => {
    const gummies = product({ thc: 0.2, thcMg: 100, servings: 10, weightGrams: 50 })
    expect(texts(gummies)).toEqual(['THC 100 mg per package · 10 mg per serving'])
    expect(sizeLabel(gummies)).toBeNull()
    expect(netWeightText(gummies.weightGrams)).toBe('50 g')
  })

  it('adds CBD when the package holds some', () => {
    const sleep = product({ thcMg: 30, cbdMg: 300, servings: 12 })
    expect(texts(sleep)).toEqual([
      'THC 30 mg per package · 2.5 mg per serving',
      'CBD 300 mg per package · 25 mg per serving',
    ])
    expect(texts(product({ thcMg: 5, cbdMg: 0, servings: 1 }))).toEqual([
      'THC 5 mg per package · 5 mg per serving',
    ])
  })

  it('says per package alone when the servings are not known', () => {
    expect(texts(product({ thcMg: 10 }))).toEqual(['THC 10 mg per package'])
    expect(texts(product({ cbdMg: 500, servings: 30 }))).toEqual([
      'CBD 500 mg per package · 16.67 mg per serving',
    ])
  })

  it('keeps flower and concentrates in percent with one decimal, and their weight', () => {
    const flower = product({ thc: 24.6, cbd: 0.1, weightGrams: 3.5 })
    expect(labelledInMg(flower)).toBe(false)
    expect(texts(flower)).toEqual(['THC 24.6%', 'CBD 0.1%'])
    // A card says THC alone, when there is some.
    expect(texts(flower, true)).toEqual(['THC 24.6%'])
    expect(texts(product({ cbd: 12 }), true)).toEqual([])
    expect(sizeLabel(flower)).toBe('3.5g')
  })

  it('shows merchandise no potency at all', () => {
    expect(texts({ ...product({}), isCannabis: false })).toEqual([])
  })

  it('prints milligrams with at most two decimals', () => {
    expect(mgText(100)).toBe('100 mg')
    expect(mgText(2.5)).toBe('2.5 mg')
    expect(mgText(10 / 3)).toBe('3.33 mg')
  })

  it('gives a card its facts on one line of text, and estimates the lines they wrap to', () => {
    const flower = { ...product({ thc: 24.6, cbd: 0.1, weightGrams: 3.5 }), isCannabis: true }
    expect(cardFacts(flower)).toEqual(['THC 24.6%', '3.5g'])
    const gummies = { ...product({ thcMg: 100, servings: 10, weightGrams: 50 }), isCannabis: true }
    expect(cardFacts(gummies)).toEqual(['THC 100 mg per package · 10 mg per serving'])
    // 140 px holds 20 characters: the flower's 14 fit one line, the gummies' 43 take three.
    expect(cardFactsLines(cardFacts(flower), 140)).toBe(1)
    expect(cardFactsLines(cardFacts(gummies), 140)).toBe(3)
    expect(cardFactsLines(cardFacts(gummies), 400)).toBe(1)
    expect(cardFactsLines(['x'.repeat(15), 'y'.repeat(15)], 140)).toBe(2)
  })
})
