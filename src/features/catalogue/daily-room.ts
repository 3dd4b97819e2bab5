/**
 * Today's daily limit where the shopper adds (docs/decisions/051-california-taxes-and-daily-limits.md): the limits for the buyer, what this
 * device's orders of the day hold and the cart, and the checks of add-limits.ts. Loaded when it is
 * first needed (a card's add button pressed, a product page shown), not with the menu: every
 * storefront page counts against the JavaScript budget, and nothing here is needed to show one.
 */
import { combineLatest, firstValueFrom, map, type Observable } from 'rxjs'
import { buyerToday$ } from '../../data/buyer-today'
import type { HumoDatabase } from '../../data/database'
import { shopSettings$ } from '../../data/hooks/use-shop-settings'
import type { CartLineDoc } from '../../data/schemas/cart-line.schema'
import type { ProductDoc } from '../../data/schemas/product.schema'
import { DEFAULT_COMPLIANCE_RULES } from '../../lib/compliance-defaults'
import { dailyLimitsOn, shopDate } from '../../lib/compliance-rules'
import { toaster } from '../../ui/toaster'
import { addRefusal, addRoom, type DailyRoom } from './add-limits'
import { addWithToast, type AddToCart } from './add-to-cart-toast'

export { addRefusal, addRoom }

/**
 * Today's limits for the buyer the checkout describes (adult use unless they said medical), what
 * this device's orders of the day hold for them, and the cart, live.
 */
export function dailyRoom$(db: HumoDatabase): Observable<DailyRoom> {
  return combineLatest([db.cart_lines.find().$, shopSettings$(db), buyerToday$(db)]).pipe(
    map(([lines, settings, { buyer, held }]) => ({
      // A device that has not synced the shop's rules yet uses the built-in ones.
      limits: dailyLimitsOn(
        settings.rules.length > 0 ? settings.rules : DEFAULT_COMPLIANCE_RULES,
        shopDate(),
        buyer.kind,
      ),
      heldToday: held,
      cartLines: lines.map((line) => line.toJSON() as CartLineDoc),
    })),
  )
}

/** The room as it is now, read once (a card's add button, which keeps no subscription). */
export const dailyRoomNow = (db: HumoDatabase): Promise<DailyRoom> => firstValueFrom(dailyRoom$(db))

/**
 * A card's add buttons: adds only what fits today's daily limit (add-limits.ts), else says why
 * with the limit's message instead of "Added to cart!". The room is read when the button is
 * pressed (a card keeps no subscription); if the device cannot say, the cart and the server
 * still check.
 */
export async function addWithinLimits(
  onAdd: AddToCart,
  product: ProductDoc,
  quantity: number,
  room: () => Promise<DailyRoom>,
): Promise<void> {
  const refusal = await room().then(
    (now) => addRefusal(product, quantity, now),
    () => null,
  )
  if (refusal) {
    toaster.create({ type: 'error', title: 'Not added to your cart', description: refusal })
    return
  }
  await addWithToast(onAdd, product, quantity)
}

/** A card's add button: one unit, within today's limit, the room read when pressed. */
export const addFromCard = (onAdd: AddToCart, product: ProductDoc, db: HumoDatabase) =>
  addWithinLimits(onAdd, product, 1, () => dailyRoomNow(db))
