import { css } from 'styled-system/css'
import { CA_CANNABIS_SAFETY_TEXT, CA_CANNABIS_SAFETY_URL } from '../../../lib/compliance-links'

/** The state's safety information for consumers (B&P §26070.3), in a new tab. */
export function SafetyInformationLink() {
  return (
    <a
      href={CA_CANNABIS_SAFETY_URL}
      target="_blank"
      rel="noopener noreferrer"
      className={css({ color: 'accent.fg', textDecoration: 'underline', fontWeight: 'medium' })}
    >
      {CA_CANNABIS_SAFETY_TEXT}
      <span className={css({ srOnly: true })}> (opens in a new tab)</span>
    </a>
  )
}
