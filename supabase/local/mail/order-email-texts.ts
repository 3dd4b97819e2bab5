// The words of the order emails (issue 22): the confirmation and the "ready for pickup" / "out
// for delivery" notices, each as plain text and as simple HTML. Pure functions of the order and
// the shop's facts, so they are tested without a mail server. Status and payment words come from
// src/lib/order-status.ts and pickup windows from src/lib/shop-hours.ts, so an email never says
// what a screen would not ("Shipped" for a pickup order, or that a payment was received).
import { EXCISE_INCLUDED_TEXT, type TaxLine } from '../../../src/lib/california-tax.ts'
import { formatMoney } from '../../../src/lib/money.ts'
import {
  orderNumber,
  orderStatusLabel,
  paymentLabel,
  type Fulfilment,
} from '../../../src/lib/order-status.ts'
import { formatPickupWindow, type PickupWindow } from '../../../src/lib/pickup-windows.ts'
import {
  CA_CANNABIS_SAFETY_TEXT,
  CA_CANNABIS_SAFETY_URL,
} from '../../../src/lib/compliance-links.ts'

export type OrderEmailKind = 'confirmation' | 'ready_for_pickup' | 'out_for_delivery'

export type EmailAddress = {
  address1: string
  address2?: string | null
  city: string
  state: string
  zipCode: string
}

/** What an email needs of an order (public.order_document's fields, plus the pickup window). */
export type EmailOrder = {
  id: string
  status: string
  fulfilment: Fulfilment
  customer: { email: string; firstName: string; lastName: string }
  shippingAddress: EmailAddress | null
  paymentMethod: string
  /** 'medical': a patient 18+ with a physician's recommendation (docs/decisions/051-california-taxes-and-daily-limits.md). */
  customerKind: 'adult' | 'medical'
  subtotal: number
  tax: number
  /** Each tax on its own line; null for an order priced before them (one "Tax" line). */
  taxLines: TaxLine[] | null
  shipping: number
  discount: number
  total: number
  items: { name: string; quantity: number; unitPrice: number; lineTotal: number }[]
  pickupWindow: PickupWindow | null
}

/** What an email needs of shop_settings.facts. */
export type EmailShop = {
  name: string
  email: string
  phone: string | null
  address: { street: string; city: string; state: string; zip: string } | null
}

export type OrderEmail = { subject: string; text: string; html: string }

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/** "https://shop.example/track?number=1A2B3C4D": the Track Order page with the number filled in. */
export function trackUrl(publicUrl: string, orderId: string): string {
  // Relative, so a shop served under a path (https://example.com/humo) keeps it.
  const url = new URL('track', publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`)
  url.searchParams.set('number', orderNumber(orderId).slice(1))
  return url.toString()
}

const shopAddressLine = (shop: EmailShop): string | null =>
  shop.address
    ? `${shop.address.street}, ${shop.address.city}, ${shop.address.state} ${shop.address.zip}`
    : null

const addressLines = (a: EmailAddress): string[] =>
  [a.address1, a.address2 ?? '', `${a.city}, ${a.state} ${a.zipCode}`].filter((l) => l.trim())

/** One block of the email: a heading and its lines, rendered both ways. */
type Block = { heading?: string; lines: string[] }

function collection(order: EmailOrder, shop: EmailShop, now: Date): Block {
  if (order.fulfilment === 'pickup') {
    const where = shopAddressLine(shop)
    return {
      heading: 'Pickup',
      lines: [
        order.pickupWindow
          ? `Pickup window: ${formatPickupWindow(order.pickupWindow, now)}`
          : 'Pickup window: we will let you know when your order is ready.',
        ...(where ? [`Where: ${shop.name}, ${where}`] : []),
        `Bring ${idToBring(order)}.`,
      ],
    }
  }
  return {
    heading: 'Delivery',
    lines: [
      ...(order.shippingAddress ? addressLines(order.shippingAddress) : []),
      `Have ${idToBring(order)} ready.`,
    ],
  }
}

/** What the buyer shows at handoff: 21+ for adult use; 18+ and the recommendation for a patient. */
function idToBring(order: EmailOrder): string {
  return order.customerKind === 'medical'
    ? "a valid government-issued photo ID (18 or older), your physician's recommendation and, if you gave one, your MMIC"
    : 'a valid government-issued photo ID: you must be 21 or older'
}

function payment(order: EmailOrder): Block {
  return {
    heading: 'Payment',
    // Nothing is charged online (docs/decisions/019-pay-at-handoff.md): say what will be paid, when and where.
    lines: [
      `${paymentLabel(order.paymentMethod, order.fulfilment)}: ${formatMoney(order.total)}, paid when you ${
        order.fulfilment === 'pickup' ? 'collect your order' : 'receive your order'
      }.`,
    ],
  }
}

function itemsBlock(order: EmailOrder): Block {
  const lines = order.items.map((i) => `${i.quantity} × ${i.name} — ${formatMoney(i.lineTotal)}`)
  lines.push(`Subtotal: ${formatMoney(order.subtotal)}`)
  if (order.discount > 0) lines.push(`Discount: −${formatMoney(order.discount)}`)
  // The delivery fee is part of the excise's base, so it comes before the taxes (CDTFA).
  if (order.fulfilment === 'delivery') lines.push(`Delivery: ${formatMoney(order.shipping)}`)
  if (order.taxLines) {
    for (const tax of order.taxLines) lines.push(`${tax.label}: ${formatMoney(tax.amount)}`)
  } else {
    lines.push(`Tax: ${formatMoney(order.tax)}`)
  }
  lines.push(`Total: ${formatMoney(order.total)}`)
  if (order.taxLines?.some((tax) => tax.kind === 'excise')) lines.push(EXCISE_INCLUDED_TEXT)
  return { heading: 'Your order', lines }
}

function footer(shop: EmailShop): Block {
  const contact = [shop.email, shop.phone].filter(Boolean).join(' · ')
  return {
    lines: [
      `Questions? Reply to this email or contact ${shop.name}: ${contact}`,
      `${CA_CANNABIS_SAFETY_TEXT}: ${CA_CANNABIS_SAFETY_URL}`,
    ],
  }
}

function render(subject: string, intro: string[], blocks: Block[], link: string): OrderEmail {
  const text = [
    ...intro,
    `Track your order: ${link}`,
    ...blocks.map((b) => [b.heading, ...b.lines].filter(Boolean).join('\n')),
  ].join('\n\n')

  const e = escapeHtml
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#222">
${intro.map((p) => `<p>${e(p)}</p>`).join('\n')}
<p><a href="${e(link)}">Track your order</a></p>
${blocks
  .map(
    (b) =>
      `${b.heading ? `<h2 style="font-size:16px;margin:20px 0 6px">${e(b.heading)}</h2>\n` : ''}` +
      `<p style="margin:0">${b.lines.map(e).join('<br>')}</p>`,
  )
  .join('\n')}
</body></html>
`
  return { subject, text: `${text}\n`, html }
}

/** The email of `kind` for `order`; `now` decides "Today"/"Tomorrow" in the pickup window. */
export function orderEmail(
  kind: OrderEmailKind,
  order: EmailOrder,
  shop: EmailShop,
  publicUrl: string,
  now: Date = new Date(),
): OrderEmail {
  const number = orderNumber(order.id)
  const link = trackUrl(publicUrl, order.id)
  const hi = `Hi ${order.customer.firstName},`
  const status = { lines: [`Status: ${orderStatusLabel(order.status, order.fulfilment)}`] }
  if (kind === 'confirmation') {
    return render(
      `Your ${shop.name} order ${number}`,
      [
        hi,
        `Thank you for your order ${number}. We have received it and will email you again when it is ${
          order.fulfilment === 'pickup' ? 'ready for pickup' : 'out for delivery'
        }.`,
      ],
      [itemsBlock(order), collection(order, shop, now), payment(order), status, footer(shop)],
      link,
    )
  }
  const ready = kind === 'ready_for_pickup'
  const what = ready ? 'ready for pickup' : 'out for delivery'
  return render(
    `Your order ${number} is ${what}`,
    [hi, `Your order ${number} is ${what}.`],
    [collection(order, shop, now), payment(order), itemsBlock(order), footer(shop)],
    link,
  )
}
