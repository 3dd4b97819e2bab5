import { useEffect, useRef, useState, type FormEvent } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import {
  INVITATION_CODE_MISSING,
  SETUP_CODE_MISSING,
  SIGNUP_TOAST,
  type AuthResult,
  type SignUpResult,
} from '../admin-auth'
import { forgetInvitationInAddress, invitationInAddress } from '../staff/staff-api'
import { card, errorBox, fieldLabel } from './admin-styles'

type Props = {
  signIn: (email: string, password: string) => Promise<AuthResult>
  signUp: (email: string, password: string, setupCode: string) => Promise<SignUpResult>
  /** Joining the staff with an invitation code (docs/decisions/025-setup-code-and-invitations.md). */
  join: (email: string, password: string, code: string) => Promise<AuthResult>
  /** Hide the sign-up link once the shop has an admin. */
  canSignUp: boolean
}

type Mode = 'signin' | 'signup' | 'join'

const ERROR_MS = 5000

const hint = css({ color: 'fg.muted', fontSize: 'xs', mt: '1' })
const linkButton = css({ color: 'accent.fg', cursor: 'pointer', textDecoration: 'underline' })

const SUBMIT: Record<Mode, string> = {
  signin: 'ACCESS DASHBOARD',
  signup: 'CREATE ADMIN ACCOUNT',
  join: 'JOIN THE STAFF',
}

/**
 * The admin portal's login (SPEC.md §2 "Admin login gate"); the first admin's sign-up with the
 * setup code, and joining the staff with an invitation (opened from /admin?invite=CODE).
 */
export function LoginPage({ signIn, signUp, join, canSignUp }: Props) {
  const [invitation] = useState(invitationInAddress)
  const [mode, setMode] = useState<Mode>(invitation ? 'join' : 'signin')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [setupCode, setSetupCode] = useState('')
  const [inviteCode, setInviteCode] = useState(invitation)
  const [showPassword, setShowPassword] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const emailRef = useRef<HTMLInputElement>(null)

  useEffect(() => emailRef.current?.focus(), [])
  useEffect(() => {
    if (!error) return
    const timer = setTimeout(() => setError(null), ERROR_MS)
    return () => clearTimeout(timer)
  }, [error])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!email.trim() || !password) {
      setError('You must provide either an email or phone number and a password')
      return
    }
    if (mode === 'signup' && !setupCode.trim()) return setError(SETUP_CODE_MISSING)
    if (mode === 'join' && !inviteCode.trim()) return setError(INVITATION_CODE_MISSING)
    setBusy(true)
    setError(null)
    try {
      if (mode === 'signin') {
        const result = await signIn(email.trim(), password)
        if (!result.ok) setError(result.error)
      } else if (mode === 'join') {
        const result = await join(email.trim(), password, inviteCode)
        if (!result.ok) setError(result.error)
        else {
          forgetInvitationInAddress()
          toaster.create({ type: 'success', title: 'Welcome to the staff!' })
        }
      } else {
        const result = await signUp(email.trim(), password, setupCode)
        if (!result.ok) setError(result.error)
        else if (!result.verified) {
          toaster.create({ type: 'success', title: SIGNUP_TOAST })
          setMode('signin')
        } else {
          toaster.create({ type: 'success', title: 'Admin account created!' })
        }
      }
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : 'Authentication failed')
    } finally {
      setBusy(false)
    }
  }

  const showSignUp = mode === 'signup' || canSignUp
  // What was typed stays when switching, as it does after an error.
  const switchTo = (next: Mode) => {
    setMode(next)
    setError(null)
  }

  return (
    <main
      className={css({
        alignItems: 'center',
        bg: 'bg.canvas',
        display: 'flex',
        justifyContent: 'center',
        minH: '100dvh',
        p: '4',
      })}
    >
      <div className={cx(card, css({ maxW: 'sm', p: '8', w: 'full' }))}>
        <div className={css({ mb: '6', textAlign: 'center' })}>
          <h1 className={css({ fontFamily: 'heading', fontSize: '2xl', fontWeight: 'bold' })}>
            Humo Admin
          </h1>
          <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
            Secure Authentication Portal
          </p>
        </div>
        <form
          onSubmit={(e) => void onSubmit(e)}
          className={css({ display: 'grid', gap: '4' })}
          noValidate
        >
          <div>
            <label htmlFor="admin-email" className={fieldLabel}>
              Email
            </label>
            <input
              id="admin-email"
              ref={emailRef}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className={input()}
            />
          </div>
          <div>
            <label htmlFor="admin-password" className={fieldLabel}>
              Password
            </label>
            <div className={css({ position: 'relative' })}>
              <input
                id="admin-password"
                type={showPassword ? 'text' : 'password'}
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                className={cx(input(), css({ pr: '16' }))}
              />
              <button
                type="button"
                onClick={() => setShowPassword((s) => !s)}
                aria-pressed={showPassword}
                // 32 px tall, padded: at least 24 × 24 for a finger (WCAG 2.5.8).
                className={css({
                  alignItems: 'center',
                  borderRadius: 'sm',
                  color: 'accent.fg',
                  cursor: 'pointer',
                  display: 'inline-flex',
                  fontSize: 'xs',
                  fontWeight: 'semibold',
                  h: '8',
                  position: 'absolute',
                  px: '2',
                  right: '1',
                  top: '50%',
                  transform: 'translateY(-50%)',
                })}
              >
                {showPassword ? 'Hide' : 'Show'}
              </button>
            </div>
          </div>
          {mode === 'signup' && (
            <div>
              <label htmlFor="admin-setup-code" className={fieldLabel}>
                Setup code
              </label>
              <input
                id="admin-setup-code"
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                value={setupCode}
                onChange={(e) => setSetupCode(e.target.value)}
                aria-describedby="admin-setup-code-hint"
                className={input()}
              />
              <p id="admin-setup-code-hint" className={hint}>
                <code>npm start</code> printed it when the server started (&ldquo;Setup code for the
                first admin&rdquo;); it is also in the setup-code file in the server&apos;s data
                folder (.humo-data/setup-code). Hosted Supabase: see README, &ldquo;The first
                admin&rdquo;.
              </p>
            </div>
          )}
          {mode === 'join' && (
            <div>
              <label htmlFor="admin-invite-code" className={fieldLabel}>
                Invitation code
              </label>
              <input
                id="admin-invite-code"
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                value={inviteCode}
                onChange={(e) => setInviteCode(e.target.value)}
                aria-describedby="admin-invite-code-hint"
                className={input()}
              />
              <p id="admin-invite-code-hint" className={hint}>
                From the admin who invited you. New here? Choose a password of at least 8
                characters. Already have an account? Use its email and password.
              </p>
            </div>
          )}
          {error && (
            <div role="alert" className={errorBox}>
              {error}
            </div>
          )}
          <Button
            type="submit"
            disabled={busy}
            size="lg"
            className={css({ w: 'full', letterSpacing: 'wide' })}
          >
            {busy ? 'AUTHENTICATING...' : SUBMIT[mode]}
          </Button>
        </form>
        {showSignUp && mode !== 'join' && (
          <p className={css({ fontSize: 'sm', mt: '4', textAlign: 'center' })}>
            <button
              type="button"
              onClick={() => switchTo(mode === 'signin' ? 'signup' : 'signin')}
              className={linkButton}
            >
              {mode === 'signin'
                ? 'Need to create the first admin account? Sign up'
                : 'Already have an admin account? Sign in'}
            </button>
          </p>
        )}
        <p className={css({ fontSize: 'sm', mt: '3', textAlign: 'center' })}>
          <button
            type="button"
            onClick={() => switchTo(mode === 'join' ? 'signin' : 'join')}
            className={linkButton}
          >
            {mode === 'join'
              ? 'Already on the staff? Sign in'
              : 'Invited to the staff? Join with your invitation code'}
          </button>
        </p>
      </div>
    </main>
  )
}
