import { createFileRoute } from '@tanstack/react-router'
import { ContactPage } from '../features/content/components/contact-page'
import { useSendContactMessage } from '../features/content/hooks/use-send-contact-message'

export const Route = createFileRoute('/contact')({ component: ContactRoute })

function ContactRoute() {
  return <ContactPage onSubmit={useSendContactMessage()} />
}
