import type { SupabaseClient } from '@supabase/supabase-js'
import { useState, type FormEvent } from 'react'
import { css } from 'styled-system/css'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { orderNumber } from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { errorBox, fieldError, muted } from '../components/admin-styles'
import { driverChoice, driverLabel, driverLoadText, type DriverRow } from './driver-choice'
import { useDrivers } from './use-drivers'

type Props = {
  supabase: SupabaseClient | null
  /** The delivery about to go out, or null when none is. */
  order: AdminOrderDoc | null
  onCancel: () => void
  onSend: (driver: DriverRow) => void
}

const option = css({
  alignItems: 'start',
  borderColor: 'border.default',
  borderRadius: 'md',
  borderWidth: '1px',
  cursor: 'pointer',
  display: 'flex',
  fontSize: 'sm',
  gap: '3',
  p: '3',
  '& input': { accentColor: 'accent.solid', h: '4', mt: '0.5', w: '4' },
  '&:has(input:disabled)': { cursor: 'not-allowed', opacity: 0.65 },
  '&:has(input:checked)': { borderColor: 'accent.solid' },
})

/**
 * "Out for delivery" names the driver who takes the order (4 CCR §15418, docs/decisions/055-delivery-by-the-rules.md), among
 * the shop's drivers with what each carries now; a driver this order would take over the load
 * cap cannot be chosen (the server refuses it too).
 */
export function ChooseDriverDialog({ supabase, order, onCancel, onSend }: Props) {
  return (
    <PanelDialog
      open={order !== null}
      onOpenChange={(open) => !open && onCancel()}
      title="Choose a driver"
      description={
        order
          ? `Order ${orderNumber(order.id)} (${formatMoney(order.total)}) goes out for delivery with:`
          : undefined
      }
    >
      {order && (
        <DriverForm
          key={order.id}
          supabase={supabase}
          order={order}
          onCancel={onCancel}
          onSend={onSend}
        />
      )}
    </PanelDialog>
  )
}

function DriverForm({ supabase, order, onCancel, onSend }: Props & { order: AdminOrderDoc }) {
  const { list, stale, error } = useDrivers(supabase, true)
  const [picked, setPicked] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const driver = list?.drivers.find((d) => d.id === picked)
    if (!driver) return setProblem('Choose the driver who takes the order')
    onSend(driver)
  }
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '3' })}>
      {stale && list && <p className={muted}>Offline: the drivers as this device last saw them.</p>}
      {error && <p className={errorBox}>{error}</p>}
      {!list && (
        <p className={muted}>
          {navigator.onLine
            ? 'Loading the drivers…'
            : 'Offline: this device has no list of drivers yet.'}
        </p>
      )}
      {list && list.drivers.length === 0 && (
        <p className={muted}>
          No drivers yet. An owner or manager invites one with the Driver role in Settings.
        </p>
      )}
      {list && list.drivers.length > 0 && (
        <fieldset className={css({ display: 'grid', gap: '2' })}>
          <legend className={css({ srOnly: true })}>Driver</legend>
          {list.drivers.map((driver) => {
            const verdict = driverChoice(driver, list.cap, order.total)
            return (
              <label key={driver.id} className={option}>
                <input
                  type="radio"
                  name="driver"
                  value={driver.id}
                  disabled={!verdict.allowed}
                  checked={picked === driver.id}
                  onChange={() => setPicked(driver.id)}
                />
                <span className={css({ display: 'grid', gap: '0.5' })}>
                  <strong>{driverLabel(driver)}</strong>
                  <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>
                    {driverLoadText(driver.load, list.cap)} out now ({driver.orders}{' '}
                    {driver.orders === 1 ? 'order' : 'orders'})
                  </span>
                  {!verdict.allowed && (
                    <span className={css({ color: 'danger.fg', fontSize: 'xs' })}>
                      {verdict.reason}
                    </span>
                  )}
                </span>
              </label>
            )
          })}
        </fieldset>
      )}
      {problem && (
        <p role="alert" className={fieldError}>
          {problem}
        </p>
      )}
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!list || list.drivers.length === 0}>
          Send out
        </Button>
      </div>
    </form>
  )
}
