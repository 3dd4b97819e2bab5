import type { SupabaseClient } from '@supabase/supabase-js'
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../../../ui/button'
import { downloadText, today } from '../admin-csv'
import { shopDateTime } from '../admin-time'
import { card, errorBox, muted, table } from '../components/admin-styles'
import { useOnline } from '../hooks/use-online'
import { fetchWaitlist, waitlistToCsv, type WaitlistEntry } from './waitlist-api'

const OFFLINE =
  'You are offline. The waitlist is read from the server (it is not kept on this device); it shows again once you are back online.'

/**
 * Admin > Waitlist, for owners and managers (docs/decisions/059-one-filter-per-idea-a-real-waitlist-no-account-buttons.md): who asked to hear about the
 * membership, when, with the consent they gave, and a CSV of it all.
 */
export function WaitlistTab({ supabase }: { supabase: SupabaseClient | null }) {
  const online = useOnline()
  const [entries, setEntries] = useState<WaitlistEntry[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    if (!supabase || !online) return
    let live = true
    fetchWaitlist(supabase).then(
      (rows) => live && (setEntries(rows), setError(null)),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    )
    return () => {
      live = false
    }
  }, [supabase, online])

  return (
    <section aria-labelledby="waitlist-title" className={card}>
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: '3',
          flexWrap: 'wrap',
          mb: '3',
        })}
      >
        <h2 id="waitlist-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          Membership waitlist{entries ? ` (${entries.length})` : ''}
        </h2>
        <Button
          type="button"
          disabled={!entries?.length}
          onClick={() =>
            entries && downloadText(`humo-waitlist-${today()}.csv`, waitlistToCsv(entries))
          }
        >
          Export CSV
        </Button>
      </div>
      <p className={muted}>
        People who asked to be told when the membership starts. The membership does not exist yet;
        each entry keeps the consent its person ticked on the home page.
      </p>
      {!online && <p className={muted}>{OFFLINE}</p>}
      {error && (
        <p role="alert" className={errorBox}>
          {error}
        </p>
      )}
      {entries === null ? (
        online && !error && <p className={muted}>Loading the waitlist…</p>
      ) : entries.length === 0 ? (
        <p className={muted}>Nobody has joined the waitlist yet.</p>
      ) : (
        <div className={css({ overflowX: 'auto', mt: '3' })}>
          <table className={table} aria-label="Membership waitlist">
            <thead>
              <tr>
                <th>Email</th>
                <th>Joined</th>
                <th>Consent</th>
                <th>Confirmation email</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.email}>
                  <td className={css({ overflowWrap: 'anywhere' })}>{e.email}</td>
                  <td className={css({ whiteSpace: 'nowrap' })}>{shopDateTime(e.consentedAt)}</td>
                  <td className={css({ fontSize: 'xs' })}>{e.consentText}</td>
                  <td>{e.confirmationEmail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
