import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { TrackPage } from '../features/orders/components/track-page'

// Only the number may come in the address (emails link here); the email or phone never does.
const search = v.object({
  // A number of digits only ("12345678") arrives as a number.
  number: v.optional(
    v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.trim(), v.maxLength(20)),
  ),
})

export const Route = createFileRoute('/track')({
  validateSearch: (input) => {
    const parsed = v.safeParse(search, input)
    return parsed.success ? parsed.output : {}
  },
  component: function Track() {
    const { number } = Route.useSearch()
    return <TrackPage initialNumber={number} />
  },
})
