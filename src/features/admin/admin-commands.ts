/** The command palette's commands (SPEC.md §2 "Admin command palette"), filtered by text. */
import type { Permissions } from './staff/staff-roles'

export type CommandId =
  | 'go-orders'
  | 'go-products'
  | 'go-brands'
  | 'go-analytics'
  | 'add-product'
  | 'bulk-edit'
  | 'export-products'
  | 'import-products'
  | 'search-orders'
  | 'filter-pending'
  | 'export-orders'
  | 'refresh'
  | 'notifications'
  | 'featured'
  | 'sales-report'
  | 'metrc-sales'
  | 'settings'

export type AdminCommand = {
  id: CommandId
  category: 'Navigation' | 'Products' | 'Orders' | 'Quick Actions' | 'Reports' | 'Settings'
  title: string
  description: string
  keywords: readonly string[]
  /** The letter pressed with the platform's command key (⌘O on a Mac, Ctrl+O elsewhere). */
  shortcut?: string
  /**
   * Browsers keep this combination for themselves in a tab (Ctrl/⌘+N opens a window; the page
   * never sees it): the palette does not offer it, though an installed app window still runs it.
   */
  browserReserved?: true
}

export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  {
    id: 'go-orders',
    category: 'Navigation',
    title: 'Go to Orders',
    description: 'View and manage the order board',
    keywords: ['orders', 'board', 'status', 'tab'],
    shortcut: 'O',
  },
  {
    id: 'go-products',
    category: 'Navigation',
    title: 'Go to Products',
    description: 'Manage the product catalogue',
    keywords: ['products', 'catalogue', 'inventory', 'tab'],
    shortcut: 'P',
  },
  {
    id: 'go-brands',
    category: 'Navigation',
    title: 'Go to Brands',
    description: 'Manage brands',
    keywords: ['brands', 'manufacturers', 'tab'],
    shortcut: 'B',
  },
  {
    id: 'go-analytics',
    category: 'Navigation',
    title: 'Go to Analytics',
    description: 'Sales charts and low stock',
    keywords: ['analytics', 'charts', 'stats', 'tab'],
    shortcut: 'A',
  },
  {
    id: 'add-product',
    category: 'Products',
    title: 'Add New Product',
    description: 'Create a product with its media',
    keywords: ['create', 'new', 'product'],
    shortcut: 'N',
    browserReserved: true,
  },
  {
    id: 'bulk-edit',
    category: 'Products',
    title: 'Bulk Edit Products',
    description: 'Set price, stock, sale, featured or active on many products',
    keywords: ['bulk', 'edit', 'mass', 'update'],
  },
  {
    id: 'export-products',
    category: 'Products',
    title: 'Export Products',
    description: 'Download every product as CSV',
    keywords: ['export', 'csv', 'download', 'products'],
  },
  {
    id: 'import-products',
    category: 'Products',
    title: 'Import Products',
    description: 'Upload a CSV of products',
    keywords: ['import', 'csv', 'upload', 'products'],
  },
  {
    id: 'search-orders',
    category: 'Orders',
    title: 'Search Orders',
    description: 'Find an order by id, customer or product',
    keywords: ['find', 'search', 'orders', 'customer'],
    shortcut: 'F',
  },
  {
    id: 'filter-pending',
    category: 'Orders',
    title: 'Filter Pending Orders',
    description: 'Show only the orders waiting to be processed',
    keywords: ['pending', 'filter', 'orders', 'new'],
  },
  {
    id: 'export-orders',
    category: 'Orders',
    title: 'Export Orders',
    description: 'Download every order as CSV',
    keywords: ['export', 'csv', 'download', 'orders'],
  },
  {
    id: 'refresh',
    category: 'Quick Actions',
    title: 'Refresh Dashboard',
    description: 'Sync orders and products with the server now',
    keywords: ['refresh', 'reload', 'sync', 'update'],
    shortcut: 'R',
  },
  {
    id: 'notifications',
    category: 'Quick Actions',
    title: 'View Notifications',
    description: 'New orders and contact messages',
    keywords: ['notifications', 'alerts', 'messages', 'inbox'],
  },
  {
    id: 'featured',
    category: 'Quick Actions',
    title: 'Manage Featured Products',
    description: 'Choose the products featured in the shop',
    keywords: ['featured', 'highlight', 'promote'],
  },
  {
    id: 'sales-report',
    category: 'Reports',
    title: 'Generate Sales Report',
    description: 'Totals for a period, with a CSV',
    keywords: ['report', 'sales', 'revenue', 'csv'],
  },
  {
    id: 'metrc-sales',
    category: 'Reports',
    title: 'Metrc Sales',
    description: "A day's sales and returns by Metrc package, as the CSV Metrc imports",
    keywords: ['metrc', 'track and trace', 'cctt', 'package', 'csv', 'state', 'compliance'],
  },
  {
    id: 'settings',
    category: 'Settings',
    title: 'Admin Settings',
    description: 'Taxes and daily limits, delivery fees, shop facts and staff accounts',
    keywords: [
      'settings',
      'admins',
      'staff',
      'configuration',
      'tax',
      'excise',
      'limits',
      'delivery fee',
    ],
  },
]

/** SPEC.md §2: case-insensitive substring on title, description or keywords. */
export function filterCommands(commands: readonly AdminCommand[], query: string): AdminCommand[] {
  const q = query.trim().toLowerCase()
  if (!q) return [...commands]
  return commands.filter(
    (c) =>
      c.title.toLowerCase().includes(q) ||
      c.description.toLowerCase().includes(q) ||
      c.keywords.some((k) => k.toLowerCase().includes(q)),
  )
}

export const COMMAND_CATEGORIES = [
  'Navigation',
  'Products',
  'Orders',
  'Quick Actions',
  'Reports',
  'Settings',
] as const

/** What `shortcutCommand` needs of a keydown event. */
export type ShortcutEvent = Pick<
  KeyboardEvent,
  'key' | 'code' | 'metaKey' | 'ctrlKey' | 'altKey' | 'shiftKey'
>

/** Letters whose Cmd/Ctrl combination edits text; a focused field keeps them. */
const TEXT_EDITING_LETTERS = new Set(['A', 'C', 'V', 'X', 'Z', 'Y'])

/** The letter of a key, by its character, or by its physical key on non-Latin layouts. */
function letterOf(event: ShortcutEvent): string | null {
  if (/^[a-z]$/i.test(event.key)) return event.key.toUpperCase()
  const physical = /^Key([A-Z])$/.exec(event.code)
  return physical ? physical[1]! : null
}

/**
 * The command a keydown runs (SPEC.md §2's letters): Cmd+letter on macOS, Ctrl+letter elsewhere,
 * with no other modifier (Ctrl+Alt is AltGr, which types characters; Shift combinations belong
 * to other shortcuts). In a text field the combinations that edit text are left alone.
 */
export function shortcutCommand(
  event: ShortcutEvent,
  options: { mac: boolean; editing: boolean },
  commands: readonly AdminCommand[] = ADMIN_COMMANDS,
): CommandId | null {
  const modifier = options.mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
  if (!modifier || event.altKey || event.shiftKey) return null
  const letter = letterOf(event)
  if (!letter) return null
  if (options.editing && TEXT_EDITING_LETTERS.has(letter)) return null
  return commands.find((c) => c.shortcut === letter)?.id ?? null
}

/** The shortcut the palette shows beside a command: none when the browser keeps it. */
export function shownShortcut(command: AdminCommand): string | null {
  return command.shortcut && !command.browserReserved ? command.shortcut : null
}

/** Whether a keydown comes from a place where keys type text. */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  if (!(target instanceof HTMLInputElement)) return false
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(
    target.type,
  )
}

/**
 * Whether a role's Admin offers a command (issue 32): the server refuses the rest anyway, so the
 * palette leaves them out. Settings stays, and says it is not available to whoever opens it.
 */
export function commandAllowed(id: CommandId, can: Permissions): boolean {
  switch (id) {
    case 'go-products':
      return can.readProducts
    case 'go-brands':
    case 'add-product':
    case 'bulk-edit':
    case 'import-products':
    case 'featured':
      return can.editProducts
    case 'go-analytics':
    case 'export-products':
    case 'export-orders':
    case 'sales-report':
    case 'metrc-sales':
    case 'notifications':
      return can.exports
    default:
      return true
  }
}
