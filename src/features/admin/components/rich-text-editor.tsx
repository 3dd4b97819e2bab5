import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import { css, cx } from 'styled-system/css'
import { button, input } from 'styled-system/recipes'

/**
 * The admin's one rich-text editor (TipTap, issue 33), loaded only when a form shows it. Its
 * schema is the formatting a product description needs (paragraphs, headings, bold, italic,
 * lists, quotes): whatever else is pasted (scripts, handlers, images, styles) is not in the schema
 * and never reaches the HTML it hands back.
 */
export type RichTextEditorProps = {
  /** The id of the element naming the editor (its visible label). */
  labelId: string
  describedBy?: string
  invalid?: boolean
  /** The formatted text's styles (the preview's, so both look the same). */
  contentClassName: string
  value: string
  onValueChange: (html: string) => void
}

const EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [2, 3] },
    code: false,
    codeBlock: false,
    horizontalRule: false,
    link: false,
  }),
]

type Tool = {
  label: string
  /** What TipTap's own keymap already binds (shown in the button's title). */
  keys: string
  active?: (e: Editor) => boolean
  run: (e: Editor) => boolean
}

const TOOLS: Tool[] = [
  {
    label: 'Bold',
    keys: 'Ctrl+B',
    active: (e) => e.isActive('bold'),
    run: (e) => e.chain().focus().toggleBold().run(),
  },
  {
    label: 'Italic',
    keys: 'Ctrl+I',
    active: (e) => e.isActive('italic'),
    run: (e) => e.chain().focus().toggleItalic().run(),
  },
  {
    label: 'Heading',
    keys: 'Ctrl+Alt+2',
    active: (e) => e.isActive('heading', { level: 2 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(),
  },
  {
    label: 'Bulleted list',
    keys: 'Ctrl+Shift+8',
    active: (e) => e.isActive('bulletList'),
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: 'Numbered list',
    keys: 'Ctrl+Shift+7',
    active: (e) => e.isActive('orderedList'),
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  { label: 'Undo', keys: 'Ctrl+Z', run: (e) => e.chain().focus().undo().run() },
  { label: 'Redo', keys: 'Ctrl+Shift+Z', run: (e) => e.chain().focus().redo().run() },
]

const surface = css({
  h: 'auto',
  minH: '32',
  maxH: '80',
  overflowY: 'auto',
  py: '2',
  '&:focus-within': { outline: '2px solid', outlineColor: 'accent.solid', outlineOffset: '1px' },
  '& .ProseMirror': { minH: '28', outline: 'none' },
  '&[aria-invalid=true]': { borderColor: 'danger.solid' },
})

export default function RichTextEditor({
  labelId,
  describedBy,
  invalid,
  contentClassName,
  value,
  onValueChange,
}: RichTextEditorProps) {
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: value,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        class: contentClassName,
      },
    },
    // The editor holds the text from here on: `value` only seeds it (the form is keyed by its
    // product). An empty editor is "<p></p>": the product then has no description.
    onUpdate: ({ editor: e }) => onValueChange(e.isEmpty ? '' : e.getHTML()),
  })
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => TOOLS.map((t) => t.active?.(e) ?? null),
  })
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <div
        role="group"
        aria-label="Formatting"
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}
      >
        {TOOLS.map((tool, i) => (
          <button
            key={tool.label}
            type="button"
            className={button({ size: 'sm', variant: active[i] ? 'solid' : 'outline' })}
            aria-pressed={active[i] ?? undefined}
            title={`${tool.label} (${tool.keys})`}
            onClick={() => tool.run(editor)}
          >
            {tool.label}
          </button>
        ))}
      </div>
      <div className={cx(input({ size: 'area' }), surface)} aria-invalid={invalid || undefined}>
        <EditorContent editor={editor} />
      </div>
    </div>
  )
}
