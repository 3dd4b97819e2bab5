/**
 * True in a server render of a storefront page (src/entry-server.tsx), where there is no document
 * and the page is drawn as a shopper who has passed the 21+ gate sees it once the app has
 * started. index.html shows that copy only to such a shopper.
 */
export function serverRender(): boolean {
  return typeof document === 'undefined'
}
