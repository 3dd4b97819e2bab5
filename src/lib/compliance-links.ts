/**
 * The state's pages a shop must point its customers to, in one place. B&P §26070.3 (in force
 * since March 2025) asks retailers to give consumers the Department of Cannabis Control's
 * safety information; checkout and the order confirmation link to it (docs/decisions/051-california-taxes-and-daily-limits.md).
 */
export const CA_CANNABIS_SAFETY_URL = 'https://cannabis.ca.gov/consumers/'

export const CA_CANNABIS_SAFETY_TEXT = "California's cannabis safety information for consumers"
