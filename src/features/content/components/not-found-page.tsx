import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'

/** SPEC.md §2: any other path. */
export function NotFoundPage() {
  return (
    <main
      className={css({
        minH: '70dvh',
        display: 'grid',
        placeItems: 'center',
        textAlign: 'center',
        px: '6',
      })}
    >
      <div>
        <h1
          className={css({
            fontFamily: 'heading',
            fontSize: '7xl',
            fontWeight: 'bold',
            color: 'accent.fg',
          })}
        >
          404
        </h1>
        <p className={css({ fontSize: 'xl', color: 'fg.muted', mb: '6' })}>Oops! Page not found</p>
        <Link to="/" className={button()}>
          Return to Home
        </Link>
      </div>
    </main>
  )
}
