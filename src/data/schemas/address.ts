/** The address part of order documents (SPEC.md §3 "Address"): null for pickup orders. */
export const addressSchemaPart = {
  type: ['object', 'null'],
  properties: {
    address1: { type: 'string' },
    address2: { type: ['string', 'null'] },
    city: { type: 'string' },
    state: { type: 'string' },
    zipCode: { type: 'string' },
  },
  required: ['address1', 'city', 'state', 'zipCode'],
} as const
