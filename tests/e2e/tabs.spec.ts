import { expect, test, type Page } from '@playwright/test'
import { passAgeGate } from './helpers/storefront'

function countPulls(page: Page) {
  const counter = { pulls: 0 }
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/rpc/pull_')) counter.pulls++
  })
  return counter
}

test('only the leader tab replicates; the other tab sees the same data live and takes over when the leader closes', async ({
  context,
}) => {
  await passAgeGate(context)
  const first = await context.newPage()
  const firstPulls = countPulls(first)
  await first.goto('/menu/edibles')
  await expect(
    first.getByRole('list', { name: 'Products' }).getByRole('heading').first(),
  ).toBeVisible()
  await expect.poll(() => firstPulls.pulls).toBeGreaterThan(0)

  const second = await context.newPage()
  const secondPulls = countPulls(second)
  await second.goto('/menu')
  await expect(
    second.getByRole('list', { name: 'Products' }).getByRole('heading').first(),
  ).toBeVisible()

  // A cart change in one tab shows in the other without a reload.
  // (Quick Add on a card: a page.goto would reload the leader and hand leadership over.)
  const card = first.getByRole('list', { name: 'Products' }).getByRole('article').first()
  const name = (await card.getByRole('heading').innerText()).trim()
  await card.getByRole('button', { name: `Add ${name} to cart` }).click()
  await expect(second.getByTestId('cart-count')).toHaveText('1')
  expect(secondPulls.pulls).toBe(0)

  // The leader goes away: the other tab is elected and starts replicating.
  await first.close()
  await expect.poll(() => secondPulls.pulls, { timeout: 20_000 }).toBeGreaterThan(0)
})
