import type { SupabaseClient } from '@supabase/supabase-js'
import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import {
  DEFAULT_LOCAL_TAX_LABEL,
  type ComplianceRule,
  type RuleKey,
} from '../../../lib/compliance-rules'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import { ConfirmDialog } from '../components/confirm-dialog'
import { PlainCheckbox } from '../components/plain-checkbox'
import { errorBox, muted, sectionTitle } from '../components/admin-styles'
import { TextField } from '../components/text-field'
import type { SavedShopSettings } from '../shop-settings.actions'
import { deleteComplianceRule } from './compliance-rules.actions'
import {
  canDeleteRule,
  formatDay,
  DELIVERY_RULES,
  LIMIT_RULES,
  ruleHistory,
  RULE_INFO,
  TAX_RULES,
  valueWords,
  type RuleEntry,
  type RulesForm,
} from './compliance-rules.validation'

type Props = {
  form: RulesForm
  errors: Record<string, string>
  rules: readonly ComplianceRule[]
  /** The shop's calendar day (YYYY-MM-DD). */
  today: string
  onChange: (rule: RuleKey, change: Partial<RuleEntry>) => void
  supabase: SupabaseClient | null
  /** Online and signed in: deleting needs the server, like saving. */
  canSave: boolean
  /** A rule was deleted on the server: the settings document it answered. */
  onDeleted: (saved: SavedShopSettings) => void
}

const small = css({ color: 'fg.muted', fontSize: 'xs' })
const group = css({
  borderColor: 'border.default',
  borderRadius: 'md',
  borderWidth: '1px',
  display: 'grid',
  gap: '2',
  m: '0',
  minW: '0',
  p: '3',
})
const inputs = css({
  alignItems: 'start',
  display: 'grid',
  gap: '3',
  gridTemplateColumns: { base: '1fr', md: '1fr 1fr 2fr' },
})
const rowLine = css({
  alignItems: 'center',
  display: 'flex',
  flexWrap: 'wrap',
  fontSize: 'sm',
  gap: '2',
})

/** A row's words: "9.75%", and for the local tax whether it reaches the receipt. */
function rowValue(row: ComplianceRule): string {
  const value = valueWords(row.rule, row.value)
  if (row.rule !== 'local_tax_rate') return value
  const name = row.label?.trim() || DEFAULT_LOCAL_TAX_LABEL
  return row.passedOn
    ? `${value}, passed on to the buyer as "${name}"`
    : `${value}, not passed on (the shop pays it)`
}

/**
 * Admin Settings → Taxes and daily limits: each rule with the value in force today, the values
 * entered ahead and the earlier ones, and the inputs for a new value from a day on. The Save of
 * the settings form sends what was changed (compliance-rules.validation.ts); a value entered
 * ahead can be deleted here until its day has passed.
 */
export function ComplianceRulesFields(props: Props) {
  const { today } = props
  const [deleting, setDeleting] = useState<ComplianceRule | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | undefined>()

  const remove = async () => {
    if (!deleting) return
    if (!props.supabase || !props.canSave) {
      setFailure('You are offline. Deleting a rule needs a connection.')
      setDeleting(null)
      return
    }
    setBusy(true)
    setFailure(undefined)
    try {
      const saved = await deleteComplianceRule(props.supabase, deleting.id)
      props.onDeleted(saved)
      toaster.create({
        type: 'success',
        title: 'Rule deleted',
        description: `${RULE_INFO[deleting.rule].title}: ${valueWords(deleting.rule, deleting.value)} from ${formatDay(deleting.effectiveFrom)}`,
      })
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
      setDeleting(null)
    }
  }

  const ruleGroup = (rule: RuleKey) => (
    <RuleGroup
      key={rule}
      rule={rule}
      entry={props.form[rule]}
      errors={props.errors}
      rules={props.rules}
      today={today}
      canSave={props.canSave}
      onChange={(change) => props.onChange(rule, change)}
      onDelete={setDeleting}
    />
  )

  return (
    <section aria-labelledby="shop-settings-rules" className={css({ display: 'grid', gap: '3' })}>
      <div>
        <h3 id="shop-settings-rules" className={sectionTitle}>
          Taxes and daily limits
        </h3>
        <p className={muted}>
          Each rate and limit applies from the day it takes effect, in the shop&apos;s time zone
          (Pacific). To change one, type the new value over the one in force, choose the day it
          takes effect (today or later) and press Save at the bottom. Orders already placed keep
          what they were charged; a value entered ahead can be deleted until its day.
        </p>
      </div>
      {failure && (
        <p role="alert" className={errorBox}>
          {failure}
        </p>
      )}
      <h4 className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>Taxes</h4>
      {TAX_RULES.map(ruleGroup)}
      <h4 className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        Daily limits per person (4 CCR §15409)
      </h4>
      {LIMIT_RULES.map(ruleGroup)}
      <h4 className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        Deliveries and pickups (4 CCR §15403, §15418)
      </h4>
      {DELIVERY_RULES.map(ruleGroup)}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this rule?"
        description={
          deleting
            ? `${RULE_INFO[deleting.rule].title}: ${rowValue(deleting)} from ${formatDay(deleting.effectiveFrom)}. The value before it stays in force.`
            : ''
        }
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </section>
  )
}

function RuleGroup({
  rule,
  entry,
  errors,
  rules,
  today,
  canSave,
  onChange,
  onDelete,
}: {
  rule: RuleKey
  entry: RuleEntry
  errors: Record<string, string>
  rules: readonly ComplianceRule[]
  today: string
  canSave: boolean
  onChange: (change: Partial<RuleEntry>) => void
  onDelete: (row: ComplianceRule) => void
}) {
  const info = RULE_INFO[rule]
  const history = ruleHistory(rules, rule, today)
  const current = history.find((h) => h.state === 'in-force')
  const upcoming = history.filter((h) => h.state === 'upcoming').reverse()
  const earlier = history.filter((h) => h.state === 'earlier')
  const legendId = `rule-${rule}`
  const set = (change: Partial<RuleEntry>) => onChange({ ...change, touched: true })
  const deleteButton = (row: ComplianceRule) =>
    canDeleteRule(row, today) && (
      <Button
        type="button"
        size="sm"
        variant="outline"
        disabled={!canSave}
        aria-label={`Delete ${info.noun.toLowerCase()} from ${formatDay(row.effectiveFrom)}`}
        onClick={() => onDelete(row)}
      >
        Delete
      </Button>
    )

  return (
    <fieldset className={group} aria-labelledby={legendId} data-rule={rule}>
      <legend id={legendId} className={css({ fontSize: 'sm', fontWeight: 'semibold', px: '1' })}>
        {info.title}
      </legend>
      <div className={rowLine} data-testid={`rule-in-force-${rule}`}>
        {current ? (
          <>
            <span className={badge({ tone: 'accent' })}>In force today</span>
            <strong>{rowValue(current.row)}</strong>
            <span className={small}>since {formatDay(current.row.effectiveFrom)}</span>
            {deleteButton(current.row)}
          </>
        ) : (
          <span className={small}>None in force today (counts as 0).</span>
        )}
      </div>
      {current?.row.source && <p className={small}>Source: {current.row.source}</p>}
      {upcoming.map(({ row }) => (
        <div key={row.id} className={rowLine}>
          <span className={badge({ tone: 'deal' })}>From {formatDay(row.effectiveFrom)}</span>
          <strong>{rowValue(row)}</strong>
          {row.source && <span className={small}>{row.source}</span>}
          {deleteButton(row)}
        </div>
      ))}
      <div className={inputs}>
        <TextField
          label={info.inputLabel}
          inputMode="decimal"
          value={entry.value}
          onValueChange={(value) => set({ value })}
          error={errors[`${rule}.value`]}
        />
        <TextField
          label="Takes effect on"
          type="date"
          min={today}
          value={entry.effectiveFrom}
          onValueChange={(effectiveFrom) => set({ effectiveFrom })}
          error={errors[`${rule}.effectiveFrom`]}
        />
        <TextField
          label="Source (optional)"
          placeholder="Statute, CDTFA notice, city ordinance"
          value={entry.source}
          onValueChange={(source) => set({ source })}
          error={errors[`${rule}.source`]}
        />
      </div>
      {rule === 'local_tax_rate' && (
        <div className={cx(inputs, css({ alignItems: 'center' }))}>
          <PlainCheckbox checked={entry.passedOn} onCheckedChange={(passedOn) => set({ passedOn })}>
            Passed on to the buyer, separately stated
          </PlainCheckbox>
          <TextField
            className={css({ gridColumn: { md: 'span 2' } })}
            label="Name on the receipt"
            value={entry.label}
            onValueChange={(label) => set({ label })}
            error={errors[`${rule}.label`]}
          />
        </div>
      )}
      <p className={small}>{info.help}</p>
      {earlier.length > 0 && (
        <details className={css({ fontSize: 'sm' })}>
          {/* 24 px tall at least: a finger's minimum (WCAG 2.5.8). */}
          <summary
            className={css({ color: 'fg.muted', cursor: 'pointer', fontSize: 'xs', py: '1.5' })}
          >
            Earlier values ({earlier.length})
          </summary>
          <ul className={css({ display: 'grid', gap: '1', mt: '1' })}>
            {earlier.map(({ row }) => (
              <li key={row.id} className={small}>
                {formatDay(row.effectiveFrom)}: {rowValue(row)}
                {row.source ? ` · ${row.source}` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
    </fieldset>
  )
}
