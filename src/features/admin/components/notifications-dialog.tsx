import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { badge } from 'styled-system/recipes'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { formatMoney } from '../../../lib/money'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { fetchContactMessages, markMessageRead, type ContactMessage } from '../admin-api'
import { shortOrderId } from '../orders/order-board-model'
import { muted, sectionTitle } from './admin-styles'
import { shopDateTime } from '../admin-time'

type Props = {
  open: boolean
  onClose: () => void
  supabase: SupabaseClient | null
  orders: AdminOrderDoc[]
  onOpenOrders: () => void
}

/** View Notifications: new (pending) orders and messages from the contact form. */
export function NotificationsDialog({ open, onClose, supabase, orders, onOpenOrders }: Props) {
  const [messages, setMessages] = useState<ContactMessage[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    if (!open || !supabase) return
    let cancelled = false
    fetchContactMessages(supabase)
      .then((m) => !cancelled && setMessages(m))
      .catch((e: unknown) => !cancelled && setError(e instanceof Error ? e.message : String(e)))
    return () => {
      cancelled = true
    }
  }, [open, supabase])

  const pending = orders.filter((o) => o.status === 'pending')
  const unread = messages?.filter((m) => !m.read_at).length ?? 0

  const markRead = async (message: ContactMessage) => {
    if (!supabase) return
    await markMessageRead(supabase, message.id).catch((e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    )
    setMessages(
      (list) =>
        list?.map((m) => (m.id === message.id ? { ...m, read_at: new Date().toISOString() } : m)) ??
        null,
    )
  }

  return (
    <PanelDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      title="Notifications"
      description={`${pending.length} new orders, ${unread} unread messages`}
    >
      <div className={css({ display: 'grid', gap: '5' })}>
        <section>
          <h3 className={sectionTitle}>New orders</h3>
          {pending.length === 0 ? (
            <p className={muted}>No new orders.</p>
          ) : (
            <ul className={css({ display: 'grid', gap: '2' })}>
              {pending.slice(0, 10).map((o) => (
                <li
                  key={o.id}
                  className={css({
                    display: 'flex',
                    fontSize: 'sm',
                    gap: '2',
                    justifyContent: 'space-between',
                  })}
                >
                  <span>
                    <strong>{shortOrderId(o.id)}</strong> {o.customerName}
                  </span>
                  <span className={muted}>
                    {formatMoney(o.total)} · {shopDateTime(o.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {pending.length > 0 && (
            <Button size="sm" variant="outline" className={css({ mt: '2' })} onClick={onOpenOrders}>
              Show pending orders
            </Button>
          )}
        </section>
        <section>
          <h3 className={sectionTitle}>Contact messages</h3>
          {error && (
            <p role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
              {error}
            </p>
          )}
          {!messages && !error && <p className={muted}>Loading...</p>}
          {messages?.length === 0 && <p className={muted}>No messages.</p>}
          <ul className={css({ display: 'grid', gap: '3' })}>
            {messages?.map((m) => (
              <li
                key={m.id}
                className={css({
                  borderColor: 'border.default',
                  borderRadius: 'md',
                  borderWidth: '1px',
                  fontSize: 'sm',
                  p: '3',
                })}
              >
                <div
                  className={css({
                    alignItems: 'center',
                    display: 'flex',
                    gap: '2',
                    justifyContent: 'space-between',
                  })}
                >
                  <strong>{m.subject}</strong>
                  {m.read_at ? (
                    <span className={badge({ tone: 'neutral' })}>Read</span>
                  ) : (
                    <Button size="sm" variant="ghost" onClick={() => void markRead(m)}>
                      Mark read
                    </Button>
                  )}
                </div>
                <p className={muted}>
                  {m.first_name} {m.last_name} · <a href={`mailto:${m.email}`}>{m.email}</a>
                  {m.phone ? ` · ${m.phone}` : ''} · {shopDateTime(m.created_at)}
                </p>
                <p className={css({ mt: '1', whiteSpace: 'pre-wrap' })}>{m.message}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </PanelDialog>
  )
}
