import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'

export function HomePage() {
  return (
    <main className={css({ py: '16', textAlign: 'center' })}>
      <p
        className={css({
          color: 'accent.fg',
          fontWeight: 'semibold',
          letterSpacing: 'wider',
          textTransform: 'uppercase',
          fontSize: 'sm',
        })}
      >
        Fuma más, vive más.
      </p>
      <h1
        className={css({
          fontFamily: 'heading',
          fontSize: { base: '4xl', md: '6xl' },
          fontWeight: 'bold',
          my: '4',
        })}
      >
        California-grown cannabis, direct from farms
      </h1>
      <p className={css({ color: 'fg.muted', fontSize: 'lg', mb: '8' })}>
        No middleman. Pickup or delivery?
      </p>
      <Link to="/menu" className={button({ size: 'lg' })}>
        Shop Now
      </Link>
    </main>
  )
}
