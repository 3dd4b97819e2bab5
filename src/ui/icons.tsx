import type { ReactNode, SVGProps } from 'react'

/** Line icons (24 px grid, stroke = currentColor). Decorative: hidden from assistive tech. */
type IconProps = SVGProps<SVGSVGElement> & { size?: number }

function icon(paths: ReactNode) {
  return function Icon({ size = 20, ...props }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden
        focusable="false"
        {...props}
      >
        {paths}
      </svg>
    )
  }
}

export const SearchIcon = icon(
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </>,
)
export const MenuIcon = icon(<path d="M4 6h16M4 12h16M4 18h16" />)
export const CloseIcon = icon(<path d="M18 6 6 18M6 6l12 12" />)
export const ChevronDownIcon = icon(<path d="m6 9 6 6 6-6" />)
export const ChevronLeftIcon = icon(<path d="m15 18-6-6 6-6" />)
export const ChevronRightIcon = icon(<path d="m9 18 6-6-6-6" />)
export const ArrowLeftIcon = icon(<path d="M19 12H5m6-6-6 6 6 6" />)
export const ArrowRightIcon = icon(<path d="M5 12h14m-6-6 6 6-6 6" />)
export const HeartIcon = icon(
  <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z" />,
)
export const PlusIcon = icon(<path d="M12 5v14M5 12h14" />)
export const MinusIcon = icon(<path d="M5 12h14" />)
export const UserIcon = icon(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </>,
)
export const ReorderIcon = icon(
  <>
    <path d="M3 12a9 9 0 0 1 15.5-6.2L21 8" />
    <path d="M21 3v5h-5" />
    <path d="M21 12a9 9 0 0 1-15.5 6.2L3 16" />
    <path d="M3 21v-5h5" />
  </>,
)
export const BookmarkIcon = icon(<path d="M6 3h12v18l-6-4-6 4z" />)
export const TruckIcon = icon(
  <>
    <path d="M3 6h11v10H3zM14 10h4l3 3v3h-7" />
    <circle cx="7" cy="18" r="2" />
    <circle cx="17" cy="18" r="2" />
  </>,
)
export const FlaskIcon = icon(
  <path d="M9 3h6M10 3v6L4.5 19a1.5 1.5 0 0 0 1.3 2h12.4a1.5 1.5 0 0 0 1.3-2L14 9V3M7 15h10" />,
)
export const ClockIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </>,
)
export const ShieldIcon = icon(
  <path d="M12 3 4 6v6c0 5 3.5 8 8 9 4.5-1 8-4 8-9V6z M9 12l2 2 4-4" />,
)
export const SparkIcon = icon(
  <path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M6 18l2.5-2.5M15.5 8.5 18 6" />,
)
export const BoxIcon = icon(
  <>
    <path d="M3 7l9-4 9 4v10l-9 4-9-4z" />
    <path d="M3 7l9 4 9-4M12 11v10" />
  </>,
)
export const StoreIcon = icon(
  <>
    <path d="M4 9V20h16V9" />
    <path d="M3 4h18l-1 5H4z" />
    <path d="M10 20v-6h4v6" />
  </>,
)
export const PhoneIcon = icon(
  <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z" />,
)
export const MailIcon = icon(
  <>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3 7 9 6 9-6" />
  </>,
)
export const PinIcon = icon(
  <>
    <path d="M12 21s-7-6.2-7-12a7 7 0 0 1 14 0c0 5.8-7 12-7 12z" />
    <circle cx="12" cy="9" r="2.5" />
  </>,
)
export const MessageIcon = icon(<path d="M4 5h16v11H8l-4 4z" />)
export const GridIcon = icon(
  <>
    <rect x="4" y="4" width="7" height="7" rx="1" />
    <rect x="13" y="4" width="7" height="7" rx="1" />
    <rect x="4" y="13" width="7" height="7" rx="1" />
    <rect x="13" y="13" width="7" height="7" rx="1" />
  </>,
)
export const ListIcon = icon(<path d="M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01" />)
export const FilterIcon = icon(<path d="M4 5h16l-6 7.5V19l-4 2v-8.5z" />)
export const PlayIcon = icon(<path d="M8 5v14l11-7z" fill="currentColor" />)
export const CheckIcon = icon(<path d="m5 12 5 5 9-10" />)
export const LeafIcon = icon(<path d="M5 19c0-8 5-14 15-15-1 10-7 15-15 15zm0 0 7-7" />)
export const EditIcon = icon(<path d="M4 20h4L19 9l-4-4L4 16z" />)
export const TrashIcon = icon(<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />)
