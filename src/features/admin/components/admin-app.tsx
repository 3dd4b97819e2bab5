import { useEffect, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { adminExists } from '../admin-auth'
import { useAdminCollections } from '../hooks/use-admin-collections'
import { useAdminGate } from '../hooks/use-admin-gate'
import { useAdminTheme } from '../hooks/use-admin-theme'
import { AdminDashboard } from './admin-dashboard'
import { LoginPage } from './login-page'

/** /admin: the gate, then the dashboard (SPEC.md §2 "Admin login gate"). */
export function AdminApp({ installSlot }: { installSlot?: ReactNode }) {
  const theme = useAdminTheme()
  const gate = useAdminGate()
  const collectionsOpen = useAdminCollections()
  const [canSignUp, setCanSignUp] = useState(true)

  useEffect(() => {
    document.title = 'Humo Admin'
  }, [])
  useEffect(() => {
    if (gate.state.status !== 'login') return
    let cancelled = false
    void adminExists(gate.supabase).then((exists) => !cancelled && setCanSignUp(!exists))
    return () => {
      cancelled = true
    }
  }, [gate.supabase, gate.state.status])

  if (gate.state.status === 'loading' || (gate.state.status === 'admin' && !collectionsOpen)) {
    return (
      <p
        role="status"
        className={css({ color: 'fg.muted', minH: '100dvh', p: '8', textAlign: 'center' })}
      >
        Loading...
      </p>
    )
  }
  if (gate.state.status === 'login') {
    return (
      <LoginPage signIn={gate.signIn} signUp={gate.signUp} join={gate.join} canSignUp={canSignUp} />
    )
  }
  return (
    <AdminDashboard
      user={gate.state.user}
      supabase={gate.supabase}
      theme={theme.theme}
      onToggleTheme={theme.toggle}
      onSignedOut={gate.signedOut}
      installSlot={installSlot}
    />
  )
}
