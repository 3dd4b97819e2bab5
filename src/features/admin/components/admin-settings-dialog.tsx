import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import {
  EXPRESS_DELIVERY,
  FREE_SHIPPING_THRESHOLD,
  STANDARD_SHIPPING,
  TAX_RATE,
  formatMoney,
} from '../../../lib/money'
import { SHOP } from '../../../lib/shop'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { toaster } from '../../../ui/toaster'
import { addAdmin, fetchStaff, type StaffProfile } from '../admin-api'
import type { AdminUser } from '../admin-auth'
import { muted, sectionTitle } from './admin-styles'
import { TextField } from './text-field'

type Props = {
  open: boolean
  onClose: () => void
  supabase: SupabaseClient | null
  user: AdminUser
}

const dl = css({
  display: 'grid',
  fontSize: 'sm',
  gap: '1',
  gridTemplateColumns: 'auto 1fr',
  columnGap: '4',
  '& dt': { color: 'fg.muted' },
})

/** Admin Settings: the shop's facts and money rules (read-only here) and its staff. */
export function AdminSettingsDialog({ open, onClose, supabase, user }: Props) {
  const [staff, setStaff] = useState<StaffProfile[] | null>(null)
  const [who, setWho] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    if (!supabase) return
    fetchStaff(supabase)
      .then(setStaff)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
  }, [supabase])
  useEffect(() => {
    if (open) load()
  }, [open, load])

  const add = async () => {
    if (!supabase || !who.trim())
      return setError('Enter the account id (or email) of an existing account')
    setBusy(true)
    setError(undefined)
    try {
      await addAdmin(supabase, who)
      toaster.create({ type: 'success', title: 'Admin added', description: who.trim() })
      setWho('')
      load()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <PanelDialog open={open} onOpenChange={(o) => !o && onClose()} size="lg" title="Admin Settings">
      <div className={css({ display: 'grid', gap: '5' })}>
        <section>
          <h3 className={sectionTitle}>Shop</h3>
          <dl className={dl}>
            <dt>Name</dt>
            <dd>{SHOP.name}</dd>
            <dt>Licence</dt>
            <dd>{SHOP.licenceNumber}</dd>
            <dt>Phone</dt>
            <dd>{SHOP.phone.display}</dd>
            <dt>Email</dt>
            <dd>{SHOP.email}</dd>
            <dt>Address</dt>
            <dd>
              {SHOP.address.street}, {SHOP.address.city}, {SHOP.address.state} {SHOP.address.zip}
            </dd>
            <dt>Tax rate</dt>
            <dd>{(TAX_RATE * 100).toFixed(1)}%</dd>
            <dt>Delivery</dt>
            <dd>
              Standard {formatMoney(STANDARD_SHIPPING)} (free from{' '}
              {formatMoney(FREE_SHIPPING_THRESHOLD)}), express {formatMoney(EXPRESS_DELIVERY)}
            </dd>
          </dl>
          <p className={css({ color: 'fg.subtle', fontSize: 'xs', mt: '2' })}>
            These are set in the shop's code (src/lib/shop.ts, src/lib/money.ts) and enforced by the
            server when orders are placed.
          </p>
        </section>
        <section>
          <h3 className={sectionTitle}>Staff</h3>
          <p className={muted}>You are signed in as {user.email}.</p>
          <ul
            className={css({
              display: 'grid',
              fontFamily: 'mono',
              fontSize: 'xs',
              gap: '1',
              my: '2',
            })}
            aria-label="Admins"
          >
            {staff?.map((s) => (
              <li key={s.user_id}>
                {s.user_id}
                {s.user_id === user.id ? ' (you)' : ''}
              </li>
            ))}
          </ul>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              void add()
            }}
            className={css({ alignItems: 'end', display: 'flex', gap: '2' })}
          >
            <TextField
              className={css({ flex: '1' })}
              label="Add an admin: account id or email of an existing account"
              value={who}
              onValueChange={setWho}
              error={error}
            />
            <Button type="submit" disabled={busy}>
              Add admin
            </Button>
          </form>
        </section>
      </div>
    </PanelDialog>
  )
}
