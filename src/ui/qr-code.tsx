import { QrCode as ArkQrCode } from '@ark-ui/react/qr-code'
import { css } from 'styled-system/css'

/** A real, scannable QR code (Ark UI's encoder) drawn as SVG. */
export function QrCode({
  value,
  label,
  size = 168,
}: {
  value: string
  label: string
  size?: number
}) {
  return (
    <ArkQrCode.Root
      value={value}
      encoding={{ ecc: 'M' }}
      role="img"
      aria-label={label}
      className={css({ bg: 'white', p: '3', borderRadius: 'md', display: 'inline-block' })}
      style={{ width: size + 24, height: size + 24 }}
    >
      <ArkQrCode.Frame className={css({ w: 'full', h: 'full' })}>
        <ArkQrCode.Pattern className={css({ fill: 'black' })} />
      </ArkQrCode.Frame>
    </ArkQrCode.Root>
  )
}
