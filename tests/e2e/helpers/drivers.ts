import { randomUUID } from 'node:crypto'
import { expect, type Locator, type Page } from '@playwright/test'
import type { SupabaseClient } from '@supabase/supabase-js'
import { adminClient, nodeClient } from './admin'

export type DriverAccount = {
  id: string
  email: string
  password: string
  firstName: string | null
  client: SupabaseClient
}

/**
 * A staff member with the Driver role (issue 32, docs/decisions/055-delivery-by-the-rules.md), as an owner invites one and they
 * join: the owner creates a Driver invitation, the new account accepts its code, and (unless
 * `firstName` is null) says the first name their delivery receipts show.
 */
export async function createDriver(
  baseURL: string,
  firstName: string | null = 'Marta',
): Promise<DriverAccount> {
  const owner = await adminClient(baseURL)
  const invited = await owner.rpc('admin_create_staff_invitation', {
    p_note: firstName ?? 'driver',
    p_role: 'driver',
  })
  if (invited.error) throw invited.error
  const code = (invited.data as { code: string }).code
  const email = `driver-${randomUUID().slice(0, 8)}@humo.test`
  const password = 'driver-pass-4242'
  const client = await nodeClient(baseURL)
  const signedUp = await client.auth.signUp({ email, password })
  if (signedUp.error) throw signedUp.error
  const signedIn = await client.auth.signInWithPassword({ email, password })
  if (signedIn.error) throw signedIn.error
  const accepted = await client.rpc('accept_staff_invitation', { p_code: code })
  if (accepted.error) throw accepted.error
  if (firstName) {
    const named = await client.rpc('set_my_first_name', { p_first_name: firstName })
    if (named.error) throw named.error
  }
  return { id: signedIn.data.user.id, email, password, firstName, client }
}

let shared: Promise<DriverAccount> | null = null

/** One driver with a first name that specs which only need "a driver" share. */
export function sharedDriver(baseURL: string): Promise<DriverAccount> {
  shared ??= createDriver(baseURL, 'Rudy').catch((error: unknown) => {
    shared = null
    throw error
  })
  return shared
}

/** A tiny valid PNG (1×1), as a signature the server accepts (it checks the PNG header). */
export const TEST_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

/** The customer signs the door flow's pad: a zigzag drawn with the mouse. */
export async function signPad(page: Page, dialog: Locator): Promise<void> {
  const box = await dialog.getByTestId('signature-pad').boundingBox()
  if (!box) throw new Error('no signature pad on screen')
  const y = box.y + box.height / 2
  await page.mouse.move(box.x + 20, y)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 20 + i * 25, y + (i % 2 ? 15 : -15))
  await page.mouse.up()
}

/**
 * A delivery's handoff through the door flow the board opens ("Delivery receipt: order #…"):
 * the ID number, "ID checked (21+)", the customer's signature, "Hand over".
 */
export async function handOverDelivery(page: Page, orderNumber: string, idNumber: string) {
  const door = page.getByRole('dialog', { name: `Delivery receipt: order ${orderNumber}` })
  await door.getByLabel('ID number').fill(idNumber)
  await door.getByRole('button', { name: 'ID checked (21+)' }).click()
  await signPad(page, door)
  await door.getByRole('button', { name: 'Hand over' }).click()
  await expect(door).toBeHidden()
}
