import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { orderNumber } from '../../../lib/order-status'
import { Button } from '../../../ui/button'
import { PanelDialog } from '../../../ui/panel-dialog'
import { errorBox, muted } from '../components/admin-styles'
import { useOnline } from '../hooks/use-online'
import type { DeliveryReceipt } from './delivery-receipt'
import { fetchDeliveryReceipt } from './deliveries.api'
import { ReceiptView } from './receipt-view'

type Props = {
  supabase: SupabaseClient | null
  /** The delivered order whose receipt is open, or null. */
  orderId: string | null
  onClose: () => void
}

/**
 * A delivered order's receipt as the server kept it at the handoff, with the customer's
 * signature (admin_delivery_receipt), to read again or print. The signature is never kept on
 * the device, so this needs a connection.
 */
export function DeliveryReceiptDialog({ supabase, orderId, onClose }: Props) {
  return (
    <PanelDialog
      open={orderId !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={orderId ? `Delivery receipt: order ${orderNumber(orderId)}` : 'Delivery receipt'}
    >
      {orderId && <ReceiptLoader key={orderId} supabase={supabase} orderId={orderId} />}
    </PanelDialog>
  )
}

function ReceiptLoader({
  supabase,
  orderId,
}: {
  supabase: SupabaseClient | null
  orderId: string
}) {
  const online = useOnline()
  const [receipt, setReceipt] = useState<DeliveryReceipt | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (!supabase || !online) return
    let live = true
    fetchDeliveryReceipt(supabase, orderId).then(
      (found) => live && setReceipt(found),
      (failure: unknown) =>
        live && setError(failure instanceof Error ? failure.message : 'Could not load the receipt'),
    )
    return () => {
      live = false
    }
  }, [supabase, orderId, online])

  if (receipt)
    return (
      <div className={css({ display: 'grid', gap: '4' })}>
        <div data-print-receipt="">
          <ReceiptView receipt={receipt} />
        </div>
        <div
          className={css({
            display: 'flex',
            justifyContent: 'flex-end',
            _print: { display: 'none' },
          })}
        >
          <Button type="button" onClick={() => window.print()}>
            Print
          </Button>
        </div>
      </div>
    )
  if (!online || !supabase)
    return (
      <p className={muted}>The signed receipt needs a connection: open it again once online.</p>
    )
  if (error) return <p className={errorBox}>{error}</p>
  return <p className={muted}>Loading the receipt…</p>
}
