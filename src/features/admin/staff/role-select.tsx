import { css } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { fieldLabel } from '../components/admin-styles'
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from './staff-roles'

type Props = {
  id: string
  label: string
  value: StaffRole
  onChange: (role: StaffRole) => void
  disabled?: boolean
  /** Why it is disabled, read with it (the last owner's role). */
  describedBy?: string
  hideLabel?: boolean
}

/**
 * A staff role: Owner, Manager, Budtender or Driver. A native select, as the settings' pickup
 * window length: it can be disabled (the last owner) and says why beside it.
 */
export function RoleSelect({
  id,
  label,
  value,
  onChange,
  disabled,
  describedBy,
  hideLabel,
}: Props) {
  return (
    <div>
      <label htmlFor={id} className={hideLabel ? css({ srOnly: true }) : fieldLabel}>
        {label}
      </label>
      <select
        id={id}
        className={input()}
        value={value}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value as StaffRole)}
      >
        {STAFF_ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
    </div>
  )
}
