import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import { badge, input } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import type { ProductFormValues } from '../admin.validation'
import { fieldError, grid2, iconButton, muted, sectionTitle } from './admin-styles'

type Props = {
  values: Pick<ProductFormValues, 'effects' | 'terpenes'>
  errors: Record<string, string>
  onEffects: (effects: ProductFormValues['effects']) => void
  onTerpenes: (terpenes: ProductFormValues['terpenes']) => void
}

/** The product form's effects and terpenes (SPEC.md §2): lists with an add row each. */
export function ProductTraitsFields({ values, errors, onEffects, onTerpenes }: Props) {
  const [effectDraft, setEffectDraft] = useState('')
  const [terpeneDraft, setTerpeneDraft] = useState({ name: '', percentage: '' })

  const addEffect = () => {
    const effect = effectDraft.trim()
    if (!effect) return
    if (!values.effects.includes(effect)) onEffects([...values.effects, effect])
    setEffectDraft('')
  }
  const addTerpene = () => {
    if (!terpeneDraft.name.trim()) return
    onTerpenes([
      ...values.terpenes,
      { name: terpeneDraft.name.trim(), percentage: terpeneDraft.percentage },
    ])
    setTerpeneDraft({ name: '', percentage: '' })
  }

  return (
    <div className={grid2}>
      <section aria-label="Effects">
        <h3 className={sectionTitle}>Effects</h3>
        <div className={css({ display: 'flex', gap: '2' })}>
          <input
            aria-label="New effect"
            placeholder="e.g. Relaxed"
            value={effectDraft}
            onChange={(e) => setEffectDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                addEffect()
              }
            }}
            className={input()}
          />
          <Button
            type="button"
            variant="outline"
            onClick={addEffect}
            disabled={!effectDraft.trim()}
          >
            Add
          </Button>
        </div>
        <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', mt: '2' })}>
          {values.effects.map((effect) => (
            <li key={effect} className={badge({ tone: 'accent' })}>
              {effect}
              <button
                type="button"
                aria-label={`Remove effect ${effect}`}
                className={css({ cursor: 'pointer', ml: '1' })}
                onClick={() => onEffects(values.effects.filter((e) => e !== effect))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Terpenes">
        <h3 className={sectionTitle}>Terpenes</h3>
        <div className={css({ display: 'flex', gap: '2' })}>
          <input
            aria-label="Terpene name"
            placeholder="e.g. Myrcene"
            value={terpeneDraft.name}
            onChange={(e) => setTerpeneDraft((t) => ({ ...t, name: e.target.value }))}
            className={input()}
          />
          <input
            aria-label="Terpene percentage"
            placeholder="%"
            type="number"
            min={0}
            max={100}
            step="0.1"
            value={terpeneDraft.percentage}
            onChange={(e) => setTerpeneDraft((t) => ({ ...t, percentage: e.target.value }))}
            className={cx(input(), css({ w: '24' }))}
          />
          <Button
            type="button"
            variant="outline"
            onClick={addTerpene}
            disabled={!terpeneDraft.name.trim()}
          >
            Add
          </Button>
        </div>
        <ul className={css({ display: 'grid', gap: '1', mt: '2' })}>
          {values.terpenes.map((terpene, index) => (
            <li
              key={`${terpene.name}-${index}`}
              className={css({ alignItems: 'center', display: 'flex', fontSize: 'sm', gap: '2' })}
            >
              <span className={css({ flex: '1' })}>{terpene.name}</span>
              <input
                aria-label={`${terpene.name} percentage`}
                type="number"
                min={0}
                max={100}
                step="0.1"
                value={terpene.percentage}
                onChange={(e) =>
                  onTerpenes(
                    values.terpenes.map((t, i) =>
                      i === index ? { ...t, percentage: e.target.value } : t,
                    ),
                  )
                }
                className={cx(input(), css({ h: '8!', w: '24' }))}
              />
              <span className={muted}>%</span>
              <button
                type="button"
                className={iconButton}
                aria-label={`Remove terpene ${terpene.name}`}
                onClick={() => onTerpenes(values.terpenes.filter((_, i) => i !== index))}
              >
                ×
              </button>
              {errors[`terpenes.${index}.percentage`] && (
                <span className={fieldError}>{errors[`terpenes.${index}.percentage`]}</span>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
