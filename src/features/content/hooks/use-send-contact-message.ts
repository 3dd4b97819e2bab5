import { useCallback } from 'react'
import { useHumoData } from '../../../data/data-context'
import type { ContactMessage } from '../components/contact-page'
import { queueContactMessage } from '../contact.actions'

/** The contact page's `onSubmit`: queue the message on the device for the contact outbox. */
export function useSendContactMessage(): (message: ContactMessage) => Promise<string> {
  const { db } = useHumoData()
  return useCallback((message) => queueContactMessage(db, message), [db])
}
