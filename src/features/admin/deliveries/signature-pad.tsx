import { useEffect, useRef, type PointerEvent } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { fieldError, fieldLabel } from '../components/admin-styles'

/** Small enough for the server's 200,000-character limit on the PNG (docs/decisions/055-delivery-by-the-rules.md). */
export const SIGNATURE_WIDTH = 600
export const SIGNATURE_HEIGHT = 200

type Props = {
  /** The signature as a PNG data URL, or null while the pad is empty. */
  onChange: (signature: string | null) => void
  error?: string
}

/**
 * The customer signs the delivery receipt on the driver's phone with a finger or a stylus
 * (pointer events); "Clear" starts again. Drawn in the canvas's own pixels, whatever its size
 * on the screen.
 */
export function SignaturePad({ onChange, error }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const drawing = useRef(false)
  const drawn = useRef(false)

  useEffect(() => {
    const context = canvasRef.current?.getContext('2d')
    if (!context) return
    context.lineWidth = 3
    context.lineCap = 'round'
    context.lineJoin = 'round'
    context.strokeStyle = '#111111'
  }, [])

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const canvas = event.currentTarget
    const box = canvas.getBoundingClientRect()
    return {
      x: ((event.clientX - box.left) / box.width) * canvas.width,
      y: ((event.clientY - box.top) / box.height) * canvas.height,
    }
  }

  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    const context = event.currentTarget.getContext('2d')
    if (!context) return
    event.currentTarget.setPointerCapture(event.pointerId)
    drawing.current = true
    const { x, y } = point(event)
    context.beginPath()
    context.moveTo(x, y)
  }
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return
    const context = event.currentTarget.getContext('2d')
    if (!context) return
    const { x, y } = point(event)
    context.lineTo(x, y)
    context.stroke()
    drawn.current = true
  }
  const up = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return
    drawing.current = false
    if (drawn.current) onChange(event.currentTarget.toDataURL('image/png'))
  }
  const clear = () => {
    const canvas = canvasRef.current
    canvas?.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height)
    drawn.current = false
    onChange(null)
  }

  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <span id="signature-label" className={fieldLabel}>
        Customer signature
      </span>
      <canvas
        ref={canvasRef}
        width={SIGNATURE_WIDTH}
        height={SIGNATURE_HEIGHT}
        role="img"
        aria-labelledby="signature-label"
        aria-describedby={error ? 'signature-error' : undefined}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        data-testid="signature-pad"
        className={css({
          aspectRatio: '3 / 1',
          bg: 'white',
          borderColor: error ? 'danger.solid' : 'border.strong',
          borderRadius: 'md',
          borderWidth: '1px',
          cursor: 'crosshair',
          touchAction: 'none',
          w: 'full',
        })}
      />
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '2' })}>
        {error ? (
          <p id="signature-error" role="alert" className={fieldError}>
            {error}
          </p>
        ) : (
          <span />
        )}
        <Button type="button" size="sm" variant="outline" onClick={clear}>
          Clear
        </Button>
      </div>
    </div>
  )
}
