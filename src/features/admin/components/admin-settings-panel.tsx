import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { useHumoData } from '../../../data/data-context'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import type { AdminUser } from '../admin-auth'
import { ComplianceRulesFields } from '../compliance/compliance-rules-fields'
import { validateRules } from '../compliance/compliance-rules.validation'
import { saveRules, useRulesForm } from '../compliance/use-rules-form'
import { useOnline } from '../hooks/use-online'
import { saveShopSettings, type SavedShopSettings } from '../shop-settings.actions'
import { StaffSection } from '../staff/staff-section'
import { notAvailableMessage, permissionsOf } from '../staff/staff-roles'
import {
  DAY_NAMES,
  formFromSettings,
  PICKUP_SLOT_CHOICES,
  validateShopSettings,
  WEEK_ORDER,
  type DayForm,
  type ShopSettingsField,
  type ShopSettingsForm,
} from '../shop-settings.validation'
import { errorBox, fieldError, fieldLabel, grid2, muted, sectionTitle } from './admin-styles'
import { TextField } from './text-field'

type Props = {
  /** Whether the Settings tab is the one shown (the staff list reloads when it comes back). */
  active: boolean
  supabase: SupabaseClient | null
  user: AdminUser
}

/**
 * Admin Settings, the admin's Settings tab (issue 33: its own entry in the navigation, where the
 * palette's "Admin Settings" also leads): the shop's taxes and daily limits, delivery fees, facts
 * and hours (editable) and its staff, as the role may (issue 32): an owner all of it, a manager
 * all but the taxes and the staff; a budtender or a driver reads that settings are not theirs.
 */
export function AdminSettingsPanel({ active, supabase, user }: Props) {
  const can = permissionsOf(user.role)
  return (
    <section aria-labelledby="admin-settings-title" className={css({ display: 'grid', gap: '5' })}>
      <h2 id="admin-settings-title" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
        Admin Settings
      </h2>
      {/* minmax(0, 1fr): no field's own width may push the page past a phone's screen. */}
      <div className={css({ display: 'grid', gap: '5', gridTemplateColumns: 'minmax(0, 1fr)' })}>
        {can.settings ? (
          <ShopSettingsEditor supabase={supabase} taxSettings={can.taxSettings} />
        ) : (
          <p role="status" className={errorBox}>
            {notAvailableMessage(user.role, 'Settings')}
          </p>
        )}
        {can.staff && <StaffSection open={active} supabase={supabase} user={user} />}
      </div>
    </section>
  )
}

const FACT_FIELDS: { field: ShopSettingsField; label: string; type?: string }[] = [
  { field: 'name', label: 'Shop name' },
  { field: 'slogan', label: 'Slogan' },
  { field: 'licenceNumber', label: 'Licence number' },
  { field: 'email', label: 'Email', type: 'email' },
  { field: 'phone', label: 'Phone', type: 'tel' },
  { field: 'textUpdatesPhone', label: 'Text updates number', type: 'tel' },
  { field: 'textUpdatesKeyword', label: 'Text keyword' },
  { field: 'deliveryArea', label: 'Delivery area' },
  { field: 'street', label: 'Street' },
  { field: 'city', label: 'City' },
  { field: 'state', label: 'State' },
  { field: 'zip', label: 'ZIP code' },
  { field: 'country', label: 'Country' },
]

const MONEY_FIELDS: { field: ShopSettingsField; label: string }[] = [
  { field: 'standardShipping', label: 'Standard delivery fee ($)' },
  { field: 'freeShippingThreshold', label: 'Free delivery threshold ($)' },
  { field: 'expressDelivery', label: 'Express delivery fee ($)' },
]

// The form is long (rules, fees, facts, hours): its buttons stay in reach while it scrolls,
// at the bottom of the screen.
const saveBar = css({
  bg: 'bg.canvas',
  borderColor: 'border.default',
  borderTopWidth: '1px',
  bottom: '0',
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  justifyContent: 'flex-end',
  position: 'sticky',
  py: '4',
  zIndex: '1',
})

/** Beside the Save button, which may be far from the field in question (each says why). */
function notSavedMessage(errors: Record<string, string>): string {
  const n = Object.keys(errors).length
  return `Nothing was saved: ${n === 1 ? '1 field needs' : `${n} fields need`} fixing (marked in red).`
}

const dayRow = css({
  alignItems: 'center',
  border: 'none',
  display: 'grid',
  gap: '2',
  // A phone puts the times under the day's name.
  gridTemplateColumns: { base: '1fr 1fr', sm: '6.5rem 6rem 1fr 1fr' },
  m: '0',
  p: '0',
  '& input[type=time]:disabled': { opacity: 0.45 },
})

/** One day of the week: closed, or open from a time to a time. */
function DayEditor({
  name,
  day,
  error,
  onChange,
}: {
  name: string
  day: DayForm
  error: string | undefined
  onChange: (change: Partial<DayForm>) => void
}) {
  return (
    <fieldset aria-label={name} className={css({ minW: '0' })}>
      <div className={dayRow}>
        <span className={css({ fontSize: 'sm', fontWeight: 'medium' })}>{name}</span>
        <label
          className={css({
            alignItems: 'center',
            display: 'flex',
            fontSize: 'sm',
            gap: '1.5',
            // The label presses the box: 24 px tall, a finger's minimum (WCAG 2.5.8).
            minH: '6',
          })}
        >
          <input
            type="checkbox"
            aria-label={`${name} closed`}
            checked={day.closed}
            onChange={(e) => onChange({ closed: e.target.checked })}
          />
          Closed
        </label>
        <input
          type="time"
          aria-label={`${name} opens`}
          className={input()}
          value={day.open}
          disabled={day.closed}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange({ open: e.target.value })}
        />
        <input
          type="time"
          aria-label={`${name} closes`}
          className={input()}
          value={day.close}
          disabled={day.closed}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange({ close: e.target.value })}
        />
      </div>
      {error && <p className={fieldError}>{error}</p>}
    </fieldset>
  )
}

/**
 * The shop's facts and money rules. It opens with what this device holds (offline too) and
 * follows a newer sync until the admin starts typing; saving needs the server.
 */
function ShopSettingsEditor({
  supabase,
  taxSettings,
}: {
  supabase: SupabaseClient | null
  /** An owner's: the tax rates and daily limits (a manager reads that they are the owner's). */
  taxSettings: boolean
}) {
  const data = useHumoData()
  const settings = useShopSettings()
  const online = useOnline()
  const [form, setForm] = useState<ShopSettingsForm>(() =>
    formFromSettings(
      settings.facts,
      settings.money,
      settings.hours,
      settings.pickup,
      settings.unacceptedOrderHours,
    ),
  )
  const [dirty, setDirtyState] = useState(false)
  // What the refill below reads. A sync's update renders as a transition, and its effect may run
  // only when the next keystroke renders, after that keystroke's handler: read from state, that
  // effect still saw "not typed" and put the stored value back over what was just typed.
  const typed = useRef(false)
  const setDirty = (value: boolean) => {
    typed.current = value
    setDirtyState(value)
  }
  // After a save, the version it made: the form keeps what was saved until the pull brings it,
  // instead of flicking back to the older settings this device still holds.
  const [awaiting, setAwaiting] = useState<string | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  const caughtUp = awaiting === null || (settings.serverModified ?? '') >= awaiting
  useEffect(() => {
    if (!typed.current && caughtUp)
      setForm(
        formFromSettings(
          settings.facts,
          settings.money,
          settings.hours,
          settings.pickup,
          settings.unacceptedOrderHours,
        ),
      )
  }, [settings, dirty, caughtUp])

  const set = (change: Partial<ShopSettingsForm>) => {
    setForm((f) => ({ ...f, ...change }))
    setDirty(true)
  }
  const setDay = (weekday: number, change: Partial<DayForm>) =>
    set({
      openingHours: form.openingHours.map((day, i) =>
        i === weekday ? { ...day, ...change } : day,
      ),
    })

  const canSave = online && supabase !== null
  const formRef = useRef<HTMLFormElement>(null)
  const rulesForm = useRulesForm(settings.rules, caughtUp)
  const touched = dirty || rulesForm.touched

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const result = validateShopSettings(form)
    const rules = validateRules(rulesForm.form, settings.rules, rulesForm.today)
    if (!result.ok || !rules.ok) {
      const found = { ...(result.ok ? {} : result.errors), ...(rules.ok ? {} : rules.errors) }
      setErrors(found)
      setFailure(notSavedMessage(found))
      // The first field in question, which may be far up the long form.
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid=true]')?.focus())
      return
    }
    setErrors({})
    if (!canSave) {
      setFailure('You are offline. Saving the settings needs a connection.')
      return
    }
    setBusy(true)
    // The newest settings document a call answered, to wait for (set from a callback too).
    const made: { last: SavedShopSettings | null } = { last: null }
    try {
      const said = await saveRules(supabase, rules.payloads, (rule, saved) => {
        made.last = saved
        rulesForm.saved(rule)
      })
      // The other settings only when they were changed, or when nothing else was: a Save
      // always saves something, as it did before the rules had their own calls.
      if (dirty || said.length === 0) {
        made.last = await saveShopSettings(supabase, result.payload, () => data.resync())
        setDirty(false)
      }
      rulesForm.reset()
      toaster.create({
        type: 'success',
        title: 'Settings saved',
        description: [...said, 'Shoppers see the new settings as their devices sync.'].join('. '),
      })
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e))
    } finally {
      if (made.last) {
        setAwaiting(made.last._modified)
        data.resync()
      }
      setBusy(false)
    }
  }

  const onRuleDeleted = (saved: SavedShopSettings) => {
    setAwaiting(saved._modified)
    data.resync()
  }

  const field = ({
    field,
    label,
    type,
  }: {
    field: ShopSettingsField
    label: string
    type?: string
  }) => (
    <TextField
      key={field}
      label={label}
      type={type ?? 'text'}
      value={form[field]}
      onValueChange={(value) => set({ [field]: value })}
      error={errors[field]}
    />
  )

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(e) => void save(e)}
      className={css({ display: 'grid', gap: '5', gridTemplateColumns: 'minmax(0, 1fr)' })}
    >
      {taxSettings ? (
        <ComplianceRulesFields
          form={rulesForm.form}
          errors={errors}
          rules={settings.rules}
          today={rulesForm.today}
          onChange={rulesForm.change}
          supabase={supabase}
          canSave={canSave}
          onDeleted={onRuleDeleted}
        />
      ) : (
        <section aria-labelledby="shop-settings-taxes">
          <h3 id="shop-settings-taxes" className={sectionTitle}>
            Taxes and daily limits
          </h3>
          <p className={muted}>Only an owner can change tax settings.</p>
        </section>
      )}
      <section aria-labelledby="shop-settings-money">
        <h3 id="shop-settings-money" className={sectionTitle}>
          Delivery fees
        </h3>
        <div className={grid2}>
          {MONEY_FIELDS.map(({ field: name, label }) => (
            <TextField
              key={name}
              label={label}
              inputMode="decimal"
              value={form[name]}
              onValueChange={(value) => set({ [name]: value })}
              error={errors[name]}
            />
          ))}
        </div>
        <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '2' })}>
          Standard delivery is free from the threshold (an order whose subtotal reaches it); express
          always costs its fee; pickup is free. The delivery fee is part of the cannabis&apos;s
          gross receipts, so the excise and sales tax apply to it.
        </p>
      </section>
      <section aria-labelledby="shop-settings-facts">
        <h3 id="shop-settings-facts" className={sectionTitle}>
          Shop
        </h3>
        <div className={grid2}>{FACT_FIELDS.map(field)}</div>
      </section>
      <section aria-labelledby="shop-settings-hours">
        <h3 id="shop-settings-hours" className={sectionTitle}>
          Opening hours
        </h3>
        <p className={css({ color: 'fg.subtle', fontSize: 'xs', mb: '2' })}>
          In the shop&apos;s time zone (Pacific). Pickup windows are offered inside these hours; the
          contact page shows them.
        </p>
        <div className={css({ display: 'grid', gap: '1.5' })}>
          {WEEK_ORDER.map((weekday) => (
            <DayEditor
              key={weekday}
              name={DAY_NAMES[weekday]}
              day={form.openingHours[weekday]!}
              error={errors[`openingHours.${weekday}`]}
              onChange={(change) => setDay(weekday, change)}
            />
          ))}
        </div>
        <div className={cx(grid2, css({ mt: '4' }))}>
          <TextField
            label="Preparation time (minutes)"
            inputMode="numeric"
            value={form.pickupPrepMinutes}
            onValueChange={(pickupPrepMinutes) => set({ pickupPrepMinutes })}
            error={errors.pickupPrepMinutes}
          />
          <div>
            <label htmlFor="pickup-slot-minutes" className={fieldLabel}>
              Pickup window length
            </label>
            <select
              id="pickup-slot-minutes"
              className={input()}
              value={form.pickupSlotMinutes}
              onChange={(e) => set({ pickupSlotMinutes: e.target.value })}
              aria-invalid={errors.pickupSlotMinutes ? true : undefined}
            >
              {PICKUP_SLOT_CHOICES.map((n) => (
                <option key={n} value={String(n)}>
                  {n} minutes
                </option>
              ))}
            </select>
            {errors.pickupSlotMinutes && <p className={fieldError}>{errors.pickupSlotMinutes}</p>}
          </div>
        </div>
        <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '2' })}>
          The earliest pickup window starts at least the preparation time after the order.
        </p>
        <div className={cx(grid2, css({ mt: '4' }))}>
          <TextField
            label="Time to accept an order (opening hours)"
            inputMode="numeric"
            value={form.unacceptedOrderHours}
            onValueChange={(unacceptedOrderHours) => set({ unacceptedOrderHours })}
            error={errors.unacceptedOrderHours}
          />
        </div>
        <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '2' })}>
          An order still Pending after this many opening hours is cancelled automatically and its
          stock returns; the shopper reads that the shop did not confirm it and nothing was charged.
        </p>
      </section>
      {/* In the bar that stays in view: the form is long, and the field in question may be far. */}
      <div className={saveBar}>
        {!online && (
          <p role="status" className={cx(muted, css({ flexBasis: 'full' }))}>
            You are offline. These are the settings as this device last synced them; saving needs a
            connection.
          </p>
        )}
        {failure && (
          <p role="alert" className={cx(errorBox, css({ flexBasis: 'full' }))}>
            {failure}
          </p>
        )}
        <Button
          type="button"
          variant="outline"
          disabled={!touched || busy}
          onClick={() => {
            setDirty(false)
            rulesForm.reset()
            setErrors({})
            setFailure(undefined)
          }}
        >
          Discard changes
        </Button>
        <Button type="submit" disabled={busy || !canSave}>
          {busy ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  )
}
