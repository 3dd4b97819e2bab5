import { expect, test } from '@playwright/test'
import { nodeClient, openDashboard } from './helpers/admin'

// Issue 23, finding 2: a file that says it is a PNG but is an SVG with a script is refused by the
// server, which reads the type from the bytes; the admin sees why, and the form keeps what was
// typed so that only the file needs replacing.
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>',
)
// A 2×2 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDx0d0WQAAAABJRU5ErkJggg==',
  'base64',
)

test('an upload the server refuses says why and keeps the form as it was', async ({
  page,
  baseURL,
}) => {
  await openDashboard(page, baseURL!)
  await page.getByRole('tab', { name: 'Products' }).click()
  await page.getByRole('button', { name: '+ Add Product' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add New Product' })
  await dialog.getByLabel('SKU').fill('E2E-SVG-01')
  await dialog.getByLabel('Product name').fill('E2E Refused Media')
  await dialog.getByLabel('THC %').fill('20')
  await dialog.getByLabel('Price ($)', { exact: true }).fill('25')
  await dialog.getByLabel('Quantity available').fill('5')
  await dialog.getByRole('button', { name: /^Category/ }).click()
  await dialog.getByRole('option', { name: 'Flower', exact: true }).click()
  await dialog
    .getByLabel(/Upload JPEG/)
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: SVG })
  await expect(dialog.getByTestId('new-media')).toHaveCount(1)

  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(page.getByText('Upload failed')).toBeVisible()
  await expect(
    page.getByText(/cover\.png: The file is not one of the shop's media types/),
  ).toBeVisible()
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('SKU')).toHaveValue('E2E-SVG-01')
  await expect(dialog.getByLabel('Product name')).toHaveValue('E2E Refused Media')

  // Replacing the file is all it takes.
  await dialog.getByTestId('new-media').getByRole('button', { name: 'Remove' }).click()
  await dialog
    .getByLabel(/Upload JPEG/)
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG })
  await dialog.getByRole('button', { name: 'Create Product' }).click()
  await expect(page.getByText('Product created successfully!')).toBeVisible()

  // Clean up for the specs after this one.
  const row = page.getByTestId('product-row').filter({ hasText: 'E2E Refused Media' })
  await row.getByRole('button', { name: 'Delete E2E Refused Media' }).click()
  await page
    .getByRole('alertdialog', { name: 'Delete Product' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page.getByText('Product deleted successfully!')).toBeVisible()
})

// Storage answers carry a sandboxing policy of their own (docs/decisions/022-media-uploads.md); the browser's own
// viewer still shows a product's picture and plays its video opened in a tab of their own.
test("a product's picture and video open in a tab of their own", async ({ page, baseURL }) => {
  const supabase = await nodeClient(baseURL!)
  for (const type of ['image', 'video'] as const) {
    const { data } = await supabase
      .from('product_media')
      .select('media_url')
      .eq('media_type', type)
      .limit(1)
      .single<{ media_url: string }>()
    const url = supabase.storage.from('product_media').getPublicUrl(data!.media_url).data.publicUrl
    const response = await page.goto(url)
    expect(response!.headers()['content-security-policy']).toContain('sandbox')
    if (type === 'image') {
      await expect
        .poll(() => page.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0)
    } else {
      await expect
        .poll(() => page.locator('video').evaluate((video: HTMLVideoElement) => video.readyState))
        .toBeGreaterThanOrEqual(1)
    }
  }
})
