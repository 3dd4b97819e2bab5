import { useState } from 'react'
import { css } from 'styled-system/css'
import { DEVICE_KEYS, readDevice, writeDevice } from '../../../lib/device-storage'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { textSignupUri } from '../../../lib/shop'
import { Checkbox } from '../../../ui/checkbox'
import { Dialog, DialogDescription, DialogTitle } from '../../../ui/dialog'
import { QrCode } from '../../../ui/qr-code'

/**
 * SPEC.md §2 "Get Text Updates": a QR code that opens a text to the shop's sign-up number, the
 * number itself (active 24/7), the rates note and "Don't show this again", which stores the seen
 * flag on the device. Escape or a click on the backdrop closes it.
 */
export function TextUpdatesDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { facts: shop } = useShopSettings()
  const [dontShow, setDontShow] = useState(() => readDevice(DEVICE_KEYS.textUpdatesSeen) === 'true')
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <div
        className={css({ textAlign: 'center', display: 'grid', gap: '4', justifyItems: 'center' })}
      >
        <DialogTitle>Get Text Updates</DialogTitle>
        <DialogDescription>
          Scan to text <strong>{shop.textUpdates.keyword}</strong> and be first to hear about drops,
          restocks and deals.
        </DialogDescription>
        <QrCode
          value={textSignupUri(shop)}
          label={`QR code: text ${shop.textUpdates.keyword} to ${shop.textUpdates.display}`}
        />
        <div>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Text updates</p>
          <a
            href={textSignupUri(shop)}
            className={css({
              fontSize: '2xl',
              fontWeight: 'bold',
              fontFamily: 'heading',
              textDecoration: 'none',
              color: 'accent.fg',
            })}
          >
            {shop.textUpdates.display}
          </a>
          <p className={css({ mt: '1' })}>
            <span
              className={css({
                display: 'inline-flex',
                alignItems: 'center',
                gap: '1.5',
                fontSize: 'xs',
                fontWeight: 'semibold',
                color: 'accent.fg',
                bg: 'accent.subtle',
                px: '2',
                py: '0.5',
                borderRadius: 'full',
              })}
            >
              <span className={css({ w: '2', h: '2', borderRadius: 'full', bg: 'accent.solid' })} />{' '}
              Active 24/7
            </span>
          </p>
        </div>
        <p className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
          Standard message rates may apply
        </p>
        <Checkbox
          label="Don't show this again"
          checked={dontShow}
          onCheckedChange={(checked) => {
            setDontShow(checked)
            writeDevice(DEVICE_KEYS.textUpdatesSeen, checked ? 'true' : null)
          }}
        />
      </div>
    </Dialog>
  )
}
