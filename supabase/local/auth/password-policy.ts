// The stand-in's rules for a new password (sign-up and password change), after NIST SP 800-63B
// §5.1.1.2: at least 8 characters, no composition rules, and refused when it is a common or
// breached password (the ~49k-entry list zxcvbn-ts ships, so it works offline), a run such as
// "aaaaaaaa" or "12345678", or the account's own email. Answers use GoTrue's weak_password shape
// and texts (reasons "length" and "pwned", as with Supabase's leaked-password protection), so the
// app reads the same error from the stand-in as from hosted Supabase.
import { Buffer } from 'node:buffer'
import { badRequest, weakPassword } from './gotrue-errors.ts'

export const MIN_PASSWORD_CHARACTERS = 8
/** bcrypt reads only the first 72 bytes: a longer password would be silently cut, so it is refused. */
export const MAX_PASSWORD_BYTES = 72

export const TOO_SHORT = `Password should be at least ${MIN_PASSWORD_CHARACTERS} characters.`
export const TOO_COMMON =
  'Password is known to be weak and easy to guess, please choose a different one.'
export const TOO_LONG = `Password cannot be longer than ${MAX_PASSWORD_BYTES} bytes (letters with accents and emoji count as 2 to 4).`

// Words of this service an attacker tries first (SP 800-63B: context-specific words).
const SERVICE_WORDS = ['humo', 'humoshop', 'humoadmin', 'humo admin', 'humo shop']

let common: Promise<Set<string>> | null = null

/** The common-password list, decompressed once on first use (about 50 ms) rather than at start. */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(
        dictionary['passwords-common'].map((entry) => entry.toLowerCase()).concat(SERVICE_WORDS),
      ),
  )
  return common
}

/** One character repeated, a short unit repeated ("abcabcabc") or a straight run ("12345678"). */
function isTrivialPattern(password: string): boolean {
  const lowered = password.toLowerCase()
  if (/^([\s\S]{1,3})\1+$/u.test(lowered)) return true
  const codes = Array.from(lowered, (c) => c.codePointAt(0)!)
  const step = codes[1]! - codes[0]!
  if (Math.abs(step) !== 1) return false
  return codes.every((code, i) => i === 0 || code - codes[i - 1]! === step)
}

/**
 * Throws GoTrue's error for a password that may not be set; `email` is the account's address
 * (the password may be neither it nor its name part).
 */
export async function checkNewPassword(password: string, email = ''): Promise<void> {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES)
    throw badRequest('validation_failed', TOO_LONG)
  // NIST counts each Unicode code point as one character (not UTF-16 units, not bytes).
  if (Array.from(password).length < MIN_PASSWORD_CHARACTERS)
    throw weakPassword([TOO_SHORT], ['length'])
  const lowered = password.toLowerCase()
  const address = email.toLowerCase()
  const name = address.split('@')[0] ?? ''
  if (
    (await commonPasswords()).has(lowered) ||
    isTrivialPattern(password) ||
    (address !== '' && (lowered === address || lowered === name))
  )
    throw weakPassword([TOO_COMMON], ['pwned'])
}
