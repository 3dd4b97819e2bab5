/**
 * The age gate's answer, remembered on the device (DESIGN.md §9): an adult 21 or older, or a
 * medical patient 18 or older with a physician's recommendation. The gate lets either in; the
 * checkout starts from it when the shopper has not chosen yet ("Adult use (21+)" or "Medical
 * patient (18+)"). Staff still check the ID (and the MMIC or recommendation) at handoff.
 */
import type { CustomerKind } from './compliance-rules'
import { DEVICE_KEYS, readDevice, writeDevice } from './device-storage'

/** What the gate stores: 'yes' (kept from before medical patients were let in) or 'medical'. */
const STORED: Record<CustomerKind, string> = { adult: 'yes', medical: 'medical' }

/** The kind of visitor the gate let in on this device, or null before anyone answered. */
export function gateAnswer(): CustomerKind | null {
  const value = readDevice(DEVICE_KEYS.ageVerified)
  return value === STORED.medical ? 'medical' : value === STORED.adult ? 'adult' : null
}

export function rememberGateAnswer(kind: CustomerKind): void {
  writeDevice(DEVICE_KEYS.ageVerified, STORED[kind])
}
