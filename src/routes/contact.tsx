import { createFileRoute } from '@tanstack/react-router'
import { ContactPage, type ContactMessage } from '../features/content/components/contact-page'

export const Route = createFileRoute('/contact')({ component: ContactRoute })

// NOTE: SPEC.md §2 only logs the message; the contact RPC replaces this handler.
function logMessage(message: ContactMessage) {
  console.info('contact message', message)
}

function ContactRoute() {
  return <ContactPage onSubmit={logMessage} />
}
