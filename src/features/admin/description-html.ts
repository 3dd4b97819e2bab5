/**
 * A product description as stored (issue 33, docs/decisions/060-an-admin-that-explains-itself.md): sanitized HTML, with DOMPurify's
 * HTML profile as the product page uses where the browser has no Sanitizer API. The editor's own
 * output is already only its schema's markup; this also cleans an older description, a paste or
 * a CSV import saved through the form, so no script or handler reaches the database from it.
 */
export async function sanitizeDescription(html: string): Promise<string> {
  if (!/[<&]/.test(html)) return html
  const { default: DOMPurify } = await import('dompurify')
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } })
}
