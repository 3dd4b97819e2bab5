/** Money helpers shared by the shop, the admin and the service worker. Dollars, two decimals. */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100
}

export function formatMoney(value: number | null | undefined): string {
  return `$${roundMoney(value ?? 0).toFixed(2)}`
}
