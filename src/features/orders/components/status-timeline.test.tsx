import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { StatusTimeline } from './status-timeline'

describe('StatusTimeline of a cancelled order', () => {
  it("shows the server's reason when it gave one (docs/decisions/026-rate-limits-and-unaccepted-orders.md)", () => {
    const reason =
      'The shop did not confirm this order within 12 opening hours, so it was cancelled automatically and its items were released. Nothing was charged.'
    const markup = renderToStaticMarkup(
      <StatusTimeline
        status="cancelled"
        fulfilment="pickup"
        history={[
          { status: 'pending', at: '2026-11-25T03:55:00Z' },
          { status: 'cancelled', at: '2026-11-26T20:00:00Z', reason },
        ]}
      />,
    )
    expect(markup).toContain(`Cancelled: ${reason}`)
  })

  it('says the shop cancelled it when there is no reason', () => {
    const markup = renderToStaticMarkup(
      <StatusTimeline
        status="cancelled"
        fulfilment="delivery"
        history={[{ status: 'cancelled', at: '2026-11-26T20:00:00Z' }]}
      />,
    )
    expect(markup).toContain('Cancelled: this order was cancelled by the shop.')
  })
})

describe('StatusTimeline live region', () => {
  const liveText = (markup: string) =>
    /<p role="status"[^>]*>(.*?)<\/p>/.exec(markup)?.[1]?.replace(/<!-- -->/g, '')

  it('says the current status in a polite live region, in the order’s own words', () => {
    const history = [
      { status: 'pending', at: '2026-11-25T03:55:00Z' },
      { status: 'shipped', at: '2026-11-25T04:10:00Z' },
    ]
    const pickup = renderToStaticMarkup(
      <StatusTimeline status="shipped" fulfilment="pickup" history={history} />,
    )
    expect(liveText(pickup)).toBe('Order status: Ready for pickup')
    const delivery = renderToStaticMarkup(
      <StatusTimeline status="shipped" fulfilment="delivery" history={history} />,
    )
    expect(liveText(delivery)).toBe('Order status: Out for delivery')
  })

  it('says a cancelled order is cancelled', () => {
    const markup = renderToStaticMarkup(
      <StatusTimeline
        status="cancelled"
        fulfilment="pickup"
        history={[{ status: 'cancelled', at: '2026-11-26T20:00:00Z' }]}
      />,
    )
    expect(liveText(markup)).toBe('Order status: Cancelled')
  })
})

describe('StatusTimeline of an order still on the device (docs/decisions/058-states-that-tell-the-truth-and-a-phone-first-product-page.md)', () => {
  const savedAt = '2026-11-25T20:50:00Z' // 12:50 PM in Los Angeles
  const markup = renderToStaticMarkup(
    <StatusTimeline
      status="pending"
      fulfilment="pickup"
      // The device's own first entry: written when the order was saved, not by the shop.
      history={[{ status: 'pending', at: savedAt }]}
      savedAt={savedAt}
    />,
  )
  const steps = [...markup.matchAll(/<li([^>]*)>(.*?)<\/li>/g)].map(([, attrs, inner]) => ({
    current: attrs!.includes('aria-current="step"'),
    text: inner!
      .replace(/<[^>]+>/g, ' ')
      .replace(/<!-- -->/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  }))

  it('has "Waiting to be sent" as its current step, with when it was saved', () => {
    expect(steps[0]!.current).toBe(true)
    expect(steps[0]!.text).toMatch(/^1 Waiting to be sent/)
    expect(steps[0]!.text).toMatch(/Saved (Nov 25, )?12:50 PM/)
    expect(steps.filter((s) => s.current)).toHaveLength(1)
  })

  it('claims no step of the shop’s: "Received" is not reached and has no time', () => {
    const received = steps.find((s) => s.text.includes('Received'))!
    expect(received.current).toBe(false)
    expect(received.text).not.toMatch(/\d:\d{2}/)
    expect(/<p role="status"[^>]*>(.*?)<\/p>/.exec(markup)?.[1]?.replace(/<!-- -->/g, '')).toBe(
      'Order status: Waiting to be sent',
    )
  })

  it('shows the shop’s steps once it is sent', () => {
    const sent = renderToStaticMarkup(
      <StatusTimeline
        status="pending"
        fulfilment="pickup"
        history={[{ status: 'pending', at: savedAt }]}
      />,
    )
    expect(sent).not.toContain('Waiting to be sent')
    expect(sent).toMatch(/aria-current="step"[^>]*>.*?Received/)
  })
})
