import { Suspense, lazy, useState, type ComponentProps } from 'react'
import type * as Ark from './ark-dialog'
import { lazyModule } from './lazy-part'

// Dialogs open on a tap, so their Ark UI machinery (focus trap, dismissable layer, portal) is
// fetched the first time one opens instead of with the page. Title and description only ever
// render inside an open dialog, that is after the module has arrived.
const ark = lazyModule<typeof Ark>(() => import('./ark-dialog'))
const ArkDialog = lazy(() => ark.load().then((module) => ({ default: module.Dialog })))

export type DialogProps = Ark.DialogProps

/**
 * A modal or side drawer (Ark UI): focus is trapped, Escape and a click on the backdrop close it.
 * Put a `DialogTitle` inside so it has an accessible name. Nothing is rendered or fetched before
 * it first opens.
 */
export function Dialog(props: DialogProps) {
  const [wanted, setWanted] = useState(props.open)
  if (props.open && !wanted) setWanted(true)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <ArkDialog {...props} />
    </Suspense>
  )
}

export function DialogTitle(props: ComponentProps<typeof Ark.DialogTitle>) {
  const Title = ark.loaded()!.DialogTitle
  return <Title {...props} />
}

export function DialogDescription(props: ComponentProps<typeof Ark.DialogDescription>) {
  const Description = ark.loaded()!.DialogDescription
  return <Description {...props} />
}
