import { useEffect, useRef, useState, type FormEvent } from 'react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { Button } from '../../../ui/button'
import { toaster } from '../../../ui/toaster'
import { SIGNUP_TOAST, type AuthResult, type SignUpResult } from '../admin-auth'
import { card, errorBox, fieldLabel } from './admin-styles'

type Props = {
  signIn: (email: string, password: string) => Promise<AuthResult>
  signUp: (email: string, password: string) => Promise<SignUpResult>
  /** Hide the sign-up link once the shop has an admin. */
  canSignUp: boolean
}

const ERROR_MS = 5000

/** The admin portal's login (SPEC.md §2 "Admin login gate"). */
export function LoginPage({ signIn, signUp, canSignUp }: Props) {
  const [mode, setMode] = useState<'signin' | 'signup'>('signin')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
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
    setBusy(true)
    setError(null)
    try {
      if (mode === 'signin') {
        const result = await signIn(email.trim(), password)
        if (!result.ok) setError(result.error)
      } else {
        const result = await signUp(email.trim(), password)
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
                autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                className={cx(input(), css({ pr: '16' }))}
              />
              <button
                type="button"
                onClick={() => setShowPassword((s) => !s)}
                aria-pressed={showPassword}
                className={css({
                  color: 'accent.fg',
                  cursor: 'pointer',
                  fontSize: 'xs',
                  fontWeight: 'semibold',
                  position: 'absolute',
                  right: '3',
                  top: '50%',
                  transform: 'translateY(-50%)',
                })}
              >
                {showPassword ? 'Hide' : 'Show'}
              </button>
            </div>
          </div>
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
            {busy
              ? 'AUTHENTICATING...'
              : mode === 'signin'
                ? 'ACCESS DASHBOARD'
                : 'CREATE ADMIN ACCOUNT'}
          </Button>
        </form>
        {showSignUp && (
          <p className={css({ fontSize: 'sm', mt: '4', textAlign: 'center' })}>
            <button
              type="button"
              onClick={() => {
                setMode((m) => (m === 'signin' ? 'signup' : 'signin'))
                setError(null)
              }}
              className={css({
                color: 'accent.fg',
                cursor: 'pointer',
                textDecoration: 'underline',
              })}
            >
              {mode === 'signin'
                ? 'Need to create the first admin account? Sign up'
                : 'Already have an admin account? Sign in'}
            </button>
          </p>
        )}
      </div>
    </main>
  )
}
