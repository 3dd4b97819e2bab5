/**
 * The state of Admin Settings' taxes and daily limits: what staff typed, per rule, and the
 * saving of the rules they changed. Like the rest of the settings form it opens with what this
 * device holds and follows a newer sync until someone types (`caughtUp`: after a save, once the
 * pull has brought the version the save made).
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useRef, useState } from 'react'
import { shopDate, type ComplianceRule, type RuleKey } from '../../../lib/compliance-rules'
import type { SavedShopSettings } from '../shop-settings.actions'
import { saveComplianceRule } from './compliance-rules.actions'
import {
  formatDay,
  RULE_INFO,
  rulesFormOf,
  valueWords,
  type RuleEntry,
  type RulePayload,
  type RulesForm,
} from './compliance-rules.validation'

export function useRulesForm(rules: readonly ComplianceRule[], caughtUp: boolean) {
  const today = shopDate()
  const [form, setForm] = useState<RulesForm>(() => rulesFormOf(rules, today))
  const [touched, setTouchedState] = useState(false)
  // Read by the refill, as the settings form's `typed` is (admin-settings-panel.tsx): a sync's
  // render must not put the stored values back over what was just typed.
  const typed = useRef(false)
  const setTouched = (value: boolean) => {
    typed.current = value
    setTouchedState(value)
  }

  useEffect(() => {
    if (!typed.current && caughtUp) setForm(rulesFormOf(rules, today))
  }, [rules, caughtUp, today, touched])

  return {
    form,
    today,
    touched,
    change: (rule: RuleKey, change: Partial<RuleEntry>) => {
      setForm((f) => ({ ...f, [rule]: { ...f[rule], ...change } }))
      setTouched(true)
    },
    /** Forget what was typed; the form refills from the settings the device holds. */
    reset: () => setTouched(false),
    /** One rule reached the server: it no longer counts as typed. */
    saved: (rule: RuleKey) =>
      setForm((f) => ({ ...f, [rule]: { ...f[rule], touched: false, source: '' } })),
  }
}

/** "Sales tax 8.5% from Nov 28, 2026". */
export const ruleWords = (p: Pick<RulePayload, 'rule' | 'value' | 'effectiveFrom'>) =>
  `${RULE_INFO[p.rule].title} ${valueWords(p.rule, p.value)} from ${formatDay(p.effectiveFrom)}`

export class RuleSaveError extends Error {}

/**
 * Saves the rules one by one, in the order the settings list them. A refusal stops there and
 * says which rule it was and which were saved before it; what was saved stays saved (each save
 * is whole on its own, and saving one again changes nothing).
 */
export async function saveRules(
  supabase: SupabaseClient,
  payloads: readonly RulePayload[],
  onSaved: (rule: RuleKey, saved: SavedShopSettings) => void,
): Promise<string[]> {
  const said: string[] = []
  for (const payload of payloads) {
    try {
      onSaved(payload.rule, await saveComplianceRule(supabase, payload))
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e)
      const before = said.length ? ` Saved before it: ${said.join('; ')}.` : ''
      throw new RuleSaveError(`${RULE_INFO[payload.rule].title}: ${message}${before}`)
    }
    said.push(ruleWords(payload))
  }
  return said
}
