/**
 * The shop's own facts: its name, licence, phone, email, address and hours. Staff edit them in
 * Admin Settings (`shop_settings` on the server, synced to every device); screens read the
 * synced facts through `useShopSettings()`. `SHOP` holds SPEC.md's values: the defaults a device
 * shows until its first sync, and the seed of `shop_settings`.
 */
export type OpeningHours = { days: string; hours: string }

export type ShopConfig = {
  name: string
  slogan: string
  /** California Department of Cannabis Control retailer licence. */
  licenceNumber: string
  phone: { display: string; e164: string }
  /** The number shoppers text to join the text updates list, and the keyword to send. */
  textUpdates: { display: string; e164: string; keyword: string }
  email: string
  address: {
    street: string
    city: string
    state: string
    zip: string
    country: string
  }
  /** The home city and its surroundings are the delivery area (SPEC.md §2 FAQ). */
  deliveryArea: string
  hours: readonly OpeningHours[]
}

export const SHOP: ShopConfig = {
  name: 'Humo',
  slogan: 'Fuma más, vive más.',
  licenceNumber: 'C10-0000421-LIC',
  phone: { display: '(323) 555-0142', e164: '+13235550142' },
  textUpdates: { display: '(323) 555-0199', e164: '+13235550199', keyword: 'HUMO' },
  email: 'hello@humo.shop',
  address: {
    street: '1820 Sunset Boulevard',
    city: 'Los Angeles',
    state: 'CA',
    zip: '90026',
    country: 'United States',
  },
  deliveryArea: 'Los Angeles and the surrounding area',
  hours: [
    { days: 'Mon-Fri', hours: '9:00 AM-8:00 PM' },
    { days: 'Sat', hours: '10:00 AM-6:00 PM' },
    { days: 'Sun', hours: '11:00 AM-5:00 PM' },
  ],
}

/** The `sms:` link a phone opens to join the text updates list (used by the QR code). */
export function textSignupUri(shop: ShopConfig = SHOP): string {
  return `sms:${shop.textUpdates.e164}?body=${encodeURIComponent(shop.textUpdates.keyword)}`
}

export const telUri = (shop: ShopConfig = SHOP): string => `tel:${shop.phone.e164}`
export const mailtoUri = (shop: ShopConfig = SHOP): string => `mailto:${shop.email}`
