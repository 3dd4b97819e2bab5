import { FileUpload as ArkFileUpload, useFileUpload } from '@ark-ui/react/file-upload'
import { useRef, type ReactNode } from 'react'
import { sva } from 'styled-system/css'
import { button } from 'styled-system/recipes'

const fileUpload = sva({
  slots: ['root', 'label', 'dropzone', 'icon', 'title', 'hint'],
  base: {
    root: { display: 'grid', gap: '1.5', w: 'full' },
    label: { color: 'fg.default', fontSize: 'sm', fontWeight: 'medium' },
    dropzone: {
      alignItems: 'center',
      bg: 'bg.surface',
      borderColor: 'border.strong',
      borderRadius: 'lg',
      borderStyle: 'dashed',
      borderWidth: '2px',
      color: 'fg.muted',
      cursor: 'pointer',
      display: 'flex',
      flexDirection: 'column',
      gap: '2',
      justifyContent: 'center',
      minH: '32',
      px: '6',
      py: '5',
      textAlign: 'center',
      transitionDuration: 'fast',
      transitionProperty: 'background, border-color, color',
      _hover: { bg: 'bg.muted', borderColor: 'accent.fg' },
      _focusVisible: { outline: '2px solid', outlineColor: 'accent.fg', outlineOffset: '2px' },
      '&[data-dragging]': { bg: 'accent.subtle', borderColor: 'accent.solid', color: 'fg.default' },
      '&[data-disabled]': { cursor: 'not-allowed', opacity: 0.5 },
    },
    icon: { color: 'accent.fg' },
    title: { color: 'fg.default', fontSize: 'sm', fontWeight: 'medium' },
    hint: { color: 'fg.subtle', fontSize: 'xs' },
  },
})

export type FileUploadProps = {
  /** The field's label; it names the file input, so tests and assistive tech find it. */
  label: ReactNode
  /** What the drop zone says it does (its accessible name). */
  dropzoneLabel?: string
  /** Small print under the drop zone (types, sizes). */
  hint?: ReactNode
  /** MIME types the file picker offers. Dropped files of other types are handed over too. */
  accept?: string[]
  multiple?: boolean
  disabled?: boolean
  /**
   * Every file picked or dropped, in order, whether or not it matches `accept`: the caller checks
   * them (and says why it refuses one). The control keeps no list of its own.
   */
  onFiles: (files: File[]) => void
}

const UploadIcon = () => (
  <svg
    width={28}
    height={28}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden
    focusable="false"
  >
    <path d="M12 16V4m-5 5 5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
  </svg>
)

/** A labelled file picker with a drop zone (Ark UI FileUpload). */
export function FileUpload({
  label,
  dropzoneLabel = 'Drop files here or choose files',
  hint,
  accept,
  multiple = true,
  disabled,
  onFiles,
}: FileUploadProps) {
  const classes = fileUpload()
  const onFilesRef = useRef(onFiles)
  onFilesRef.current = onFiles
  const api = useFileUpload({
    accept,
    maxFiles: multiple ? 1000 : 1,
    disabled,
    translations: { dropzone: dropzoneLabel },
    onFileChange: (details) => {
      const files = [...details.acceptedFiles, ...details.rejectedFiles.map((r) => r.file)]
      if (files.length === 0) return
      onFilesRef.current(files)
      // The caller owns the list; clearing lets the same file be chosen again.
      queueMicrotask(() => apiRef.current?.clearFiles())
    },
  })
  const apiRef = useRef<typeof api | null>(null)
  apiRef.current = api

  return (
    <ArkFileUpload.RootProvider value={api} className={classes.root}>
      <ArkFileUpload.Label className={classes.label}>{label}</ArkFileUpload.Label>
      {/* Not a button itself: it holds one, Choose files, and a button may hold no other control
          (axe's nested-interactive). A click anywhere in it still opens the file picker. */}
      <ArkFileUpload.Dropzone
        disableClick
        role="group"
        className={classes.dropzone}
        onClick={(event) => {
          if (!disabled && !(event.target as Element).closest('button')) api.openFilePicker()
        }}
      >
        <span className={classes.icon}>
          <UploadIcon />
        </span>
        <span className={classes.title}>Drag and drop files here</span>
        <ArkFileUpload.Trigger className={button({ size: 'sm', variant: 'outline' })}>
          Choose files
        </ArkFileUpload.Trigger>
        {hint && <span className={classes.hint}>{hint}</span>}
      </ArkFileUpload.Dropzone>
      <ArkFileUpload.HiddenInput />
    </ArkFileUpload.RootProvider>
  )
}
