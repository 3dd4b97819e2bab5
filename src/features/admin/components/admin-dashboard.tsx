import type { SupabaseClient } from '@supabase/supabase-js'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { useHumoData } from '../../../data/data-context'
import type { AdminOrderDoc } from '../../../data/schemas/admin-order.schema'
import { Tabs } from '../../../ui/ark-tabs'
import { toaster } from '../../../ui/toaster'
import { forgetAdmin, type AdminUser } from '../admin-auth'
import {
  commandAllowed,
  isEditableTarget,
  shortcutCommand,
  type CommandId,
} from '../admin-commands'
import { isApplePlatform } from '../platform-keys'
import { removeAdminData } from '../admin.actions'
import type { AdminProductRow } from '../admin-product'
import { useAdminOrders, useCatalogueProducts, useOrderNotices } from '../hooks/use-admin-data'
import { useAdminExports } from '../hooks/use-admin-exports'
import { useAdminProducts } from '../hooks/use-admin-products'
import { useAdminReplication } from '../hooks/use-admin-replication'
import { useOnline } from '../hooks/use-online'
import { orderStatusLabel } from '../../../lib/order-status'
import { DriverDeliveries } from '../deliveries/driver-deliveries'
import { OrderBoard, type MoveOptions, type OrderFilter } from '../orders/order-board'
import { isWaitingToSync, shortOrderId, type OrderStatus } from '../orders/order-board-model'
import { dismissNotice, moveOrder } from '../orders/orders.actions'
import { useOrderAlerts } from '../orders/use-order-alerts'
import { dashboardStats } from '../order-stats'
import { ActivityTab } from '../activity/activity-tab'
import { ReviewsTab } from '../reviews/reviews-tab'
import { WaitlistTab } from '../waitlist/waitlist-tab'
import { DRIVER_MOVE_MESSAGE, notAvailableMessage, permissionsOf } from '../staff/staff-roles'
import { AdminHeader } from './admin-header'
import { AdminSettingsPanel } from './admin-settings-panel'
import { AnalyticsTab } from './analytics-tab'
import { BrandsTab } from './brands-tab'
import { BulkEditDialog } from './bulk-edit-dialog'
import { CommandPalette } from './command-palette'
import { FeaturedDialog } from './featured-dialog'
import { ImportProductsDialog } from './import-products-dialog'
import { NotificationsDialog } from './notifications-dialog'
import { ProductFormDialog } from './product-form-dialog'
import { ProductsTab } from './products-tab'
import { MetrcNotice } from '../metrc/metrc-notice'
import { MetrcSalesDialog } from '../metrc/metrc-sales-dialog'
import { useUnexportedDays } from '../metrc/use-metrc-sales'
import { SalesReportDialog } from './sales-report-dialog'
import { StatCards } from './stat-cards'
import { SyncStatus } from './sync-status'

type Props = {
  user: AdminUser
  supabase: SupabaseClient | null
  theme: 'dark' | 'light'
  onToggleTheme: () => void
  onSignedOut: () => void
  installSlot?: ReactNode
}

type Tab =
  'orders' | 'products' | 'brands' | 'analytics' | 'activity' | 'reviews' | 'waitlist' | 'settings'
/** An open Ark dialog's content (the palette is one too). */
const OPEN_DIALOG = '[data-scope="dialog"][data-part="content"][data-state="open"]'
type PaletteDialog = 'bulk' | 'import' | 'notifications' | 'featured' | 'report' | 'metrc' | null

/** The back office (SPEC.md §2 "Admin dashboard") and what its command palette runs. */
export function AdminDashboard({
  user,
  supabase,
  theme,
  onToggleTheme,
  onSignedOut,
  installSlot,
}: Props) {
  const data = useHumoData()
  const { db, sync$ } = data
  const resync = useCallback(() => data.resync(), [data])
  const navigate = useNavigate()
  const online = useOnline()
  // What the role gets (issue 32); the server refuses the rest whatever a screen offers.
  const can = useMemo(() => permissionsOf(user.role), [user.role])
  const allowed = useCallback((id: CommandId) => commandAllowed(id, can), [can])
  const replication = useAdminReplication(supabase, can.readProducts)
  const orders = useAdminOrders()
  const notices = useOrderNotices()
  const catalogue = useCatalogueProducts()
  const products = useAdminProducts(replication)
  const alerts = useOrderAlerts(db, orders, replication.whenOrdersSynced)
  const { exportProducts, exportOrders, ordersForExport } = useAdminExports(replication, products)

  const [tab, setTab] = useState<Tab>('orders')
  const [paletteOpen, setPaletteOpen] = useState(false)
  const [dialog, setDialog] = useState<PaletteDialog>(null)
  const [metrcDay, setMetrcDay] = useState<string | null>(null)
  const [metrcExports, setMetrcExports] = useState(0)
  const unexported = useUnexportedDays(can.exports ? supabase : null, online, metrcExports)
  const [productForm, setProductForm] = useState<{ open: boolean; row: AdminProductRow | null }>({
    open: false,
    row: null,
  })
  const [orderSearch, setOrderSearch] = useState('')
  const [orderFilter, setOrderFilter] = useState<OrderFilter>('all')
  const [focusSearchToken, setFocusSearchToken] = useState(0)
  const [signingOut, setSigningOut] = useState(false)

  // The latest command runner and palette state for the window's key handler.
  const runRef = useRef<(id: CommandId) => void>(() => undefined)
  const paletteOpenRef = useRef(paletteOpen)
  paletteOpenRef.current = paletteOpen

  // Cmd/Ctrl+K toggles the palette; Cmd/Ctrl+Shift+P opens it when closed (SPEC.md §2); the
  // palette's Cmd/Ctrl+letter shortcuts run their commands, from the palette too.
  useEffect(() => {
    const mac = isApplePlatform()
    const onKey = (event: KeyboardEvent) => {
      const mod = event.metaKey || event.ctrlKey
      if (!mod) return
      const key = event.key.toLowerCase()
      if (key === 'k' && !event.shiftKey) {
        event.preventDefault()
        setPaletteOpen((open) => !open)
        return
      }
      if (key === 'p' && event.shiftKey) {
        event.preventDefault()
        setPaletteOpen(true)
        return
      }
      const command = shortcutCommand(event, { mac, editing: isEditableTarget(event.target) })
      if (!command) return
      // Another open dialog (a form, a confirmation) holds the keyboard.
      if (!paletteOpenRef.current && document.querySelector(OPEN_DIALOG)) return
      event.preventDefault()
      if (event.repeat) return
      setPaletteOpen(false)
      runRef.current(command)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // Staff count every product the shop has, inactive ones too, once the admin catalogue is on
  // the device; until then the shoppers' (active) catalogue stands in.
  const statProducts = useMemo(
    () =>
      products.rows?.map((p) => ({
        createdAt: p.created_at,
        stock: p.quantity_available,
        unlimited: p.is_unlimited_quantity,
      })) ?? catalogue,
    [products.rows, catalogue],
  )
  const stats = useMemo(() => dashboardStats(statProducts, orders ?? []), [statProducts, orders])
  // A product write: the admin catalogue and the shoppers' catalogue on this device both pull.
  const productsChanged = () => {
    products.reload()
    resync()
  }
  const waiting = (orders ?? []).filter(isWaitingToSync).length

  const onMove = useCallback(
    (order: AdminOrderDoc, to: OrderStatus, options: MoveOptions) => {
      // The server refuses a driver anything else (and a refused push would only retry).
      if (user.role === 'driver' && !(order.status === 'shipped' && to === 'delivered')) {
        toaster.create({ type: 'error', title: DRIVER_MOVE_MESSAGE })
        return
      }
      moveOrder(db, order.id, to, options).then(
        (moved) => {
          if (!moved) return
          toaster.create({
            type: 'success',
            title: `Order ${shortOrderId(order.id)} moved to ${orderStatusLabel(to, order.fulfilment)}`,
            description: navigator.onLine
              ? undefined
              : 'Saved on this device; it syncs when you are back online.',
          })
        },
        // The device's database refused the write (storage full, the tab closing): the card stays
        // where it was, and staff are told so rather than left to think it moved.
        () =>
          toaster.create({
            type: 'error',
            title: `Order ${shortOrderId(order.id)} was not moved`,
            description: 'This device could not save the change. Try again, or reload the page.',
          }),
      )
    },
    [db, user.role],
  )

  const signOut = async () => {
    setSigningOut(true)
    try {
      await replication.stop()
      await removeAdminData(db)
      if (supabase) {
        const { error } = await supabase.auth.signOut()
        if (error) {
          console.error('Sign out failed', error)
          await supabase.auth.signOut({ scope: 'local' })
        }
      }
      forgetAdmin()
    } finally {
      onSignedOut()
      void navigate({ to: '/admin' })
    }
  }

  const run = (id: CommandId) => {
    if (!allowed(id))
      return toaster.create({ type: 'error', title: notAvailableMessage(user.role, 'That') })
    switch (id) {
      case 'go-orders':
        return setTab('orders')
      case 'go-products':
        return setTab('products')
      case 'go-brands':
        return setTab('brands')
      case 'go-analytics':
        return setTab('analytics')
      case 'add-product':
        setTab('products')
        return setProductForm({ open: true, row: null })
      case 'bulk-edit':
        return setDialog('bulk')
      case 'export-products':
        return void exportProducts()
      case 'import-products':
        return setDialog('import')
      case 'search-orders':
        setTab('orders')
        if (orderFilter === 'cancelled') setOrderFilter('all')
        return setFocusSearchToken((n) => n + 1)
      case 'filter-pending':
        setTab('orders')
        return setOrderFilter('pending')
      case 'export-orders':
        return void exportOrders()
      case 'refresh':
        resync()
        replication.nudge()
        return toaster.create({
          type: 'info',
          title: 'Dashboard refreshed',
          description: 'Syncing with the server.',
        })
      case 'notifications':
        return setDialog('notifications')
      case 'featured':
        return setDialog('featured')
      case 'sales-report':
        return setDialog('report')
      case 'metrc-sales':
        setMetrcDay(null)
        return setDialog('metrc')
      case 'settings':
        return setTab('settings')
    }
  }

  runRef.current = run

  const syncing = replication.active || sync$.value.syncing
  // The report and the charts say when their orders are not the server's yet (issue 25).
  const ordersNote = replication.ordersPulled
    ? null
    : replication.ordersSynced
      ? online
        ? 'Updating the orders from the server…'
        : 'Offline: figures from this device’s copy of the orders.'
      : online
        ? 'Loading the orders from the server…'
        : 'Offline: this device has not loaded the orders yet.'

  return (
    <div className={css({ bg: 'bg.canvas', color: 'fg.default', minH: '100dvh' })}>
      <AdminHeader
        email={user.email}
        theme={theme}
        onToggleTheme={onToggleTheme}
        onOpenPalette={() => setPaletteOpen(true)}
        onSignOut={() => void signOut()}
        signingOut={signingOut}
        installSlot={installSlot}
      />
      <main
        className={css({
          display: 'grid',
          gap: '6',
          maxW: '7xl',
          mx: 'auto',
          px: { base: '4', md: '8' },
          py: '6',
        })}
      >
        <SyncStatus
          online={online}
          waiting={waiting}
          syncing={syncing}
          error={online ? replication.error : null}
        />
        {can.exports && (
          <MetrcNotice
            days={unexported}
            onExport={(day) => {
              setMetrcDay(day)
              setDialog('metrc')
            }}
          />
        )}
        {can.readProducts && <StatCards stats={stats} />}
        <Tabs.Root value={tab} onValueChange={(d) => setTab(d.value as Tab)} lazyMount>
          <Tabs.List>
            <Tabs.Trigger value="orders">
              {user.role === 'driver' ? 'Deliveries' : 'Orders'}
            </Tabs.Trigger>
            {can.readProducts && <Tabs.Trigger value="products">Products</Tabs.Trigger>}
            {can.editProducts && <Tabs.Trigger value="brands">Brands</Tabs.Trigger>}
            {can.exports && <Tabs.Trigger value="analytics">Analytics</Tabs.Trigger>}
            {can.activity && <Tabs.Trigger value="activity">Activity</Tabs.Trigger>}
            {can.reviews && <Tabs.Trigger value="reviews">Reviews</Tabs.Trigger>}
            {can.exports && <Tabs.Trigger value="waitlist">Waitlist</Tabs.Trigger>}
            <Tabs.Trigger value="settings">Settings</Tabs.Trigger>
            <Tabs.Indicator />
          </Tabs.List>
          <Tabs.Content value="orders">
            {user.role === 'driver' ? (
              <DriverDeliveries
                supabase={supabase}
                userId={user.id}
                orders={orders}
                notices={notices}
                onDismissNotice={(id) => void dismissNotice(db, id)}
                onDeliver={(order, options) => onMove(order, 'delivered', options)}
              />
            ) : (
              <OrderBoard
                supabase={supabase}
                orders={orders}
                notices={notices}
                onDismissNotice={(id) => void dismissNotice(db, id)}
                onMove={onMove}
                onOpenOrder={alerts.markOpened}
                muted={alerts.muted}
                onMutedChange={alerts.setMuted}
                search={orderSearch}
                onSearchChange={setOrderSearch}
                filter={orderFilter}
                onFilterChange={setOrderFilter}
                focusSearchToken={focusSearchToken}
              />
            )}
          </Tabs.Content>
          <Tabs.Content value="products">
            <ProductsTab
              supabase={supabase}
              products={products}
              onAdd={() => setProductForm({ open: true, row: null })}
              onEdit={(row: AdminProductRow) => setProductForm({ open: true, row })}
              readOnly={!can.editProducts}
            />
          </Tabs.Content>
          <Tabs.Content value="brands">
            <BrandsTab supabase={supabase} products={products.rows} onChanged={resync} />
          </Tabs.Content>
          <Tabs.Content value="activity">
            <ActivityTab supabase={supabase} products={products.rows} />
          </Tabs.Content>
          <Tabs.Content value="reviews">
            <ReviewsTab supabase={supabase} />
          </Tabs.Content>
          <Tabs.Content value="waitlist">
            <WaitlistTab supabase={supabase} />
          </Tabs.Content>
          <Tabs.Content value="analytics">
            <AnalyticsTab
              orders={orders ?? []}
              catalogue={catalogue}
              ordersNote={ordersNote}
              supabase={supabase}
              onOpenMetrc={() => {
                setMetrcDay(null)
                setDialog('metrc')
              }}
            />
          </Tabs.Content>
          <Tabs.Content value="settings">
            <AdminSettingsPanel active={tab === 'settings'} supabase={supabase} user={user} />
          </Tabs.Content>
        </Tabs.Root>
      </main>
      <CommandPalette
        open={paletteOpen}
        onOpenChange={setPaletteOpen}
        onRun={run}
        allowed={allowed}
      />
      <ProductFormDialog
        open={productForm.open}
        row={productForm.row}
        supabase={supabase}
        onClose={() => setProductForm({ open: false, row: null })}
        onSaved={productsChanged}
        onReferencesChanged={resync}
      />
      <BulkEditDialog
        open={dialog === 'bulk'}
        onClose={() => setDialog(null)}
        supabase={supabase}
        rows={products.rows ?? []}
        onSaved={productsChanged}
      />
      <ImportProductsDialog
        open={dialog === 'import'}
        onClose={() => setDialog(null)}
        supabase={supabase}
        rows={products.rows ?? []}
        onImported={productsChanged}
      />
      <NotificationsDialog
        open={dialog === 'notifications'}
        onClose={() => setDialog(null)}
        supabase={supabase}
        orders={orders ?? []}
        onOpenOrders={() => {
          setDialog(null)
          setTab('orders')
          setOrderFilter('pending')
        }}
      />
      <FeaturedDialog
        open={dialog === 'featured'}
        onClose={() => setDialog(null)}
        supabase={supabase}
        rows={products.rows ?? []}
        onSaved={productsChanged}
      />
      <SalesReportDialog
        open={dialog === 'report'}
        onClose={() => setDialog(null)}
        orders={orders ?? []}
        ordersNote={ordersNote}
        loadOrders={() => ordersForExport().then((found) => found?.all ?? null)}
      />
      <MetrcSalesDialog
        open={dialog === 'metrc'}
        onClose={() => setDialog(null)}
        supabase={supabase}
        initialDay={metrcDay}
        onExported={() => setMetrcExports((n) => n + 1)}
      />
    </div>
  )
}
