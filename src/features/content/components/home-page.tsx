import { Link } from '@tanstack/react-router'
import { useState, type ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { badge, button } from 'styled-system/recipes'
import { MembershipPromo } from './membership-promo'
import { ShopByCategory } from './shop-by-category'
import { useShopSettings } from '../../../data/hooks/use-shop-settings'
import { formatThreshold } from '../../../lib/money'
import {
  ArrowRightIcon,
  BoxIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  ClockIcon,
  FlaskIcon,
  LeafIcon,
  ShieldIcon,
  SparkIcon,
  StoreIcon,
  TruckIcon,
} from '../../../ui/icons'

const sectionTitle = css({
  fontFamily: 'heading',
  fontSize: { base: '2xl', md: '3xl' },
  fontWeight: 'bold',
})

type Slide = {
  badge: string
  title: string
  text: string
  cta: ReactNode
}

const ctaClass = button({ size: 'lg', variant: 'light' })

const SLIDES: Slide[] = [
  {
    badge: 'New Arrivals',
    title: 'California-grown cannabis, direct from farms',
    text: 'No middleman: small farms from Humboldt to the desert, priced fairly and delivered discreetly.',
    cta: (
      <Link to="/menu/$category" params={{ category: 'flower' }} className={ctaClass}>
        Shop Now <ArrowRightIcon size={18} />
      </Link>
    ),
  },
  {
    badge: 'B2B Solutions',
    title: 'Wholesale for dispensaries and retailers',
    text: 'Bulk flower, concentrates and compliant packaging at wholesale pricing, with reliable restocks.',
    cta: (
      <Link to="/menu/$category" params={{ category: 'wholesale' }} className={ctaClass}>
        View Wholesale <ArrowRightIcon size={18} />
      </Link>
    ),
  },
]

const BENEFITS = [
  { icon: <TruckIcon size={18} />, title: 'Discreet delivery', text: 'Professional and unmarked' },
  {
    icon: <FlaskIcon size={18} />,
    title: 'Lab-tested quality',
    text: 'Third-party tested for safety and potency',
  },
  {
    icon: <ShieldIcon size={18} />,
    title: 'Consistent products',
    text: 'Reliable, batch after batch',
  },
]

const heroArrow = css({
  display: 'grid',
  placeItems: 'center',
  w: '10',
  h: '10',
  borderRadius: 'full',
  bg: 'bg.surface',
  color: 'accent.fg',
  cursor: 'pointer',
  boxShadow: 'card',
  _hover: { bg: 'accent.subtle' },
})

/** Variant one's hero: two slides, arrows and dots, the index wraps. */
function HeroCarousel() {
  const { facts } = useShopSettings()
  const [index, setIndex] = useState(0)
  const go = (delta: number) => setIndex((i) => (i + delta + SLIDES.length) % SLIDES.length)
  const slide = SLIDES[index]!
  return (
    <section
      aria-roledescription="carousel"
      aria-label="Highlights"
      className={css({
        position: 'relative',
        overflow: 'hidden',
        borderRadius: 'lg',
        bgGradient: 'to-br',
        gradientFrom: 'accent.solid',
        gradientTo: 'bg.inverse',
        color: 'fg.onAccent',
        px: { base: '6', md: '14' },
        pt: { base: '10', md: '16' },
        pb: { base: '8', md: '10' },
        boxShadow: 'raised',
      })}
    >
      <LeafIcon
        size={420}
        strokeWidth={0.6}
        className={css({
          position: 'absolute',
          right: '-16',
          top: '-10',
          opacity: 0.12,
          pointerEvents: 'none',
          display: { base: 'none', md: 'block' },
        })}
      />
      <div
        role="group"
        aria-roledescription="slide"
        aria-label={`${index + 1} of ${SLIDES.length}`}
        className={css({ position: 'relative', maxW: '2xl', minH: { base: '72', md: '64' } })}
      >
        <span className={badge({ tone: 'dealSolid' })}>{slide.badge}</span>
        <h1
          className={css({
            fontFamily: 'heading',
            fontSize: { base: '3xl', md: '5xl' },
            fontWeight: 'bold',
            lineHeight: 'tight',
            mt: '4',
          })}
        >
          {slide.title}
        </h1>
        <p
          className={css({
            mt: '4',
            fontSize: { base: 'md', md: 'lg' },
            color: 'fg.onInverse',
            maxW: 'xl',
          })}
        >
          {slide.text}
        </p>
        <p className={css({ mt: '1', fontStyle: 'italic', color: 'fg.onInverseMuted' })}>
          {facts.slogan}
        </p>
        <div className={css({ mt: '6' })}>{slide.cta}</div>
      </div>
      <ul
        className={css({
          position: 'relative',
          display: 'grid',
          gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' },
          gap: '4',
          mt: '8',
          pt: '6',
          borderTopWidth: '1px',
          borderColor: 'accent.solidHover',
        })}
      >
        {BENEFITS.map((b) => (
          <li key={b.title} className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
            <span
              className={css({
                display: 'grid',
                placeItems: 'center',
                w: '9',
                h: '9',
                borderRadius: 'full',
                bg: 'accent.solidHover',
                flexShrink: 0,
              })}
            >
              {b.icon}
            </span>
            <span className={css({ fontSize: 'sm' })}>
              <strong className={css({ display: 'block' })}>{b.title}</strong>
              <span className={css({ color: 'fg.onInverseMuted' })}>{b.text}</span>
            </span>
          </li>
        ))}
      </ul>
      <div
        className={css({
          position: { base: 'relative', md: 'absolute' },
          right: { md: '8' },
          top: { md: '10' },
          display: 'flex',
          alignItems: 'center',
          gap: '3',
          mt: { base: '6', md: '0' },
        })}
      >
        <button
          type="button"
          aria-label="Previous slide"
          className={heroArrow}
          onClick={() => go(-1)}
        >
          <ChevronLeftIcon />
        </button>
        <div className={css({ display: 'flex', gap: '2' })}>
          {SLIDES.map((s, i) => (
            <button
              key={s.badge}
              type="button"
              aria-label={`Go to slide ${i + 1}`}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => setIndex(i)}
              // A 24 px target (WCAG 2.5.8) around the small dot.
              className={css({
                display: 'grid',
                placeItems: 'center',
                minW: '6',
                h: '6',
                cursor: 'pointer',
                _before: {
                  content: '""',
                  h: '2.5',
                  borderRadius: 'full',
                  transition: 'all 0.2s',
                  w: i === index ? '7' : '2.5',
                  bg: i === index ? 'fg.onAccent' : 'accent.solidHover',
                },
              })}
            />
          ))}
        </div>
        <button type="button" aria-label="Next slide" className={heroArrow} onClick={() => go(1)}>
          <ChevronRightIcon />
        </button>
      </div>
    </section>
  )
}

const tileStyle = {
  bg: 'bg.surface',
  borderRadius: 'lg',
  boxShadow: 'card',
  p: '6',
  display: 'flex',
  gap: '4',
  alignItems: 'flex-start',
} as const
const tile = css(tileStyle)
const tileIcon = css({
  display: 'grid',
  placeItems: 'center',
  w: '12',
  h: '12',
  borderRadius: 'md',
  bg: 'accent.subtle',
  color: 'accent.fg',
  flexShrink: 0,
})

function FeatureTiles() {
  const tiles = [
    {
      icon: <SparkIcon />,
      title: 'Premium Selection',
      text: 'Top-shelf flower, edibles and concentrates from California craft farms.',
    },
    {
      icon: <BoxIcon />,
      title: 'Branded Solutions',
      text: 'Smell-proof luxury bags, limited runs and custom designs for your brand.',
    },
    {
      icon: <StoreIcon />,
      title: 'Wholesale Ready',
      text: 'Bulk pricing and steady supply for licensed dispensaries and retailers.',
    },
  ]
  return (
    <ul
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' },
        gap: '4',
      })}
    >
      {tiles.map((t) => (
        <li key={t.title} className={tile}>
          <span className={tileIcon}>{t.icon}</span>
          <span>
            <h2 className={css({ fontWeight: 'bold', fontSize: 'lg' })}>{t.title}</h2>
            <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>{t.text}</p>
          </span>
        </li>
      ))}
    </ul>
  )
}

function RollbacksBanner() {
  return (
    <section
      aria-label="Rollbacks"
      className={css({
        display: 'flex',
        flexDirection: { base: 'column', md: 'row' },
        alignItems: { md: 'center' },
        justifyContent: 'space-between',
        gap: '4',
        bg: 'deal.subtle',
        borderRadius: 'lg',
        px: { base: '6', md: '10' },
        py: '6',
        borderWidth: '1px',
        borderColor: 'deal.solid',
      })}
    >
      <div>
        <p
          className={css({
            fontFamily: 'heading',
            fontSize: '2xl',
            fontWeight: 'bold',
            color: 'deal.fg',
          })}
        >
          Rollbacks
        </p>
        <p className={css({ color: 'fg.default' })}>
          Fresh price drops on concentrates, edibles and flower — while they last.
        </p>
      </div>
      <Link
        to="/menu"
        search={{ category: 'sale-items' }}
        className={button({ variant: 'deal', size: 'lg' })}
      >
        Shop Rollbacks
      </Link>
    </section>
  )
}

function ValueTiles() {
  const { money } = useShopSettings()
  const tiles = [
    {
      icon: <TruckIcon />,
      title: 'Free delivery',
      text: `Free delivery on orders over ${formatThreshold(money.freeShippingThreshold)}, brought by our own drivers the next day we're open; same-day pickup available.`,
    },
    {
      icon: <ShieldIcon />,
      title: 'Quality guaranteed',
      text: 'All products lab-tested for potency and safety.',
    },
    {
      icon: <ClockIcon />,
      title: 'Fast & reliable',
      text: 'Quick order processing with real-time tracking updates.',
    },
  ]
  return (
    <ul
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' },
        gap: '4',
      })}
    >
      {tiles.map((t) => (
        <li
          key={t.title}
          className={cx(
            tile,
            css({ flexDirection: 'column', alignItems: 'center', textAlign: 'center' }),
          )}
        >
          <span className={tileIcon}>{t.icon}</span>
          <h3 className={css({ fontWeight: 'bold', fontSize: 'lg' })}>{t.title}</h3>
          <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t.text}</p>
        </li>
      ))}
    </ul>
  )
}

/**
 * Home (SPEC.md §2, both variants on one page): hero carousel, feature tiles, Rollbacks,
 * Shop by Category, Featured Products and Flash Deals (slots filled by the catalogue), the
 * membership promo and the value tiles.
 */
export function HomePage({ featured, deals }: { featured: ReactNode; deals: ReactNode }) {
  return (
    <main className={css({ display: 'grid', gap: { base: '10', md: '14' } })}>
      <HeroCarousel />
      <FeatureTiles />
      <ShopByCategory sectionTitle={sectionTitle} />
      {featured}
      <RollbacksBanner />
      {deals}
      <MembershipPromo sectionTitle={sectionTitle} />
      <ValueTiles />
    </main>
  )
}
