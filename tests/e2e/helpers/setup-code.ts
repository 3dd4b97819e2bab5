/**
 * The e2e shop's setup code for its first admin: playwright.config.ts gives it to the server as
 * HUMO_SETUP_CODE, as a scripted install would, and the tests type it.
 */
export const E2E_SETUP_CODE = 'E2E0-SHOP-SETU-PC0D'
