import { describe, expect, it } from 'vitest'
import { exportSource, notReadyMessage } from './export-wait'

const never = () => new Promise<boolean>(() => undefined)
const after = (ms: number, value = true) =>
  new Promise<boolean>((resolve) => setTimeout(() => resolve(value), ms))

describe('exportSource', () => {
  it('online, waits for this page’s pull and exports what it brought', async () => {
    const source = await exportSource({
      online: true,
      whenPulled: () => after(30),
      heldBefore: () => false,
      waitMs: 2000,
    })
    expect(source).toBe('server')
  })

  it('online, a pull that does not come in time falls back to a whole earlier copy, or waits on', async () => {
    expect(
      await exportSource({ online: true, whenPulled: never, heldBefore: () => true, waitMs: 20 }),
    ).toBe('device')
    expect(
      await exportSource({ online: true, whenPulled: never, heldBefore: () => false, waitMs: 20 }),
    ).toBe('loading')
  })

  it('a pull that fails or has nothing replicating is not taken for a pulled device', async () => {
    const failing = () => Promise.reject(new Error('pull_products_admin failed'))
    expect(await exportSource({ online: true, whenPulled: failing, heldBefore: () => false })).toBe(
      'loading',
    )
    expect(
      await exportSource({
        online: true,
        whenPulled: () => Promise.resolve(false),
        heldBefore: () => false,
      }),
    ).toBe('loading')
  })

  it('offline, takes the device’s whole copy at once, or says the device has none', async () => {
    let asked = false
    const whenPulled = () => {
      asked = true
      return never()
    }
    expect(await exportSource({ online: false, whenPulled, heldBefore: () => true })).toBe('device')
    expect(await exportSource({ online: false, whenPulled, heldBefore: () => false })).toBe(
      'offline',
    )
    expect(asked).toBe(false)
  })

  it('says why in words staff can act on', () => {
    expect(notReadyMessage('offline', 'products')).toEqual({
      title: 'Products are not on this device yet',
      description:
        'You are offline, and this device has not loaded the products since you signed in. Connect to the internet, then try again.',
    })
    expect(notReadyMessage('loading', 'orders').title).toBe('Orders are still loading')
  })
})
