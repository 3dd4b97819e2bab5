// The server's import directions (supabase/local/README.md) are enforced by lint, as the app's
// are: fed a file that imports a room above it, or that closes a cycle, ESLint fails.
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({
  cwd: process.cwd(),
  // The import rules need no type information; without it each check takes a moment, not a minute.
  overrideConfig: [
    { files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked },
    { files: ['**/*.ts'], languageOptions: { parserOptions: { project: false } } },
  ],
})

async function problems(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`)
}

describe('the server’s import directions', () => {
  it('refuse a room importing one above it', async () => {
    const found = await problems(
      'supabase/local/db/database.ts',
      "import { handleRest } from '../rest/rest-handler.ts'\nexport const probe = handleRest\n",
    )
    expect(
      found.some(
        (p) =>
          p.startsWith('import-x/no-restricted-paths') &&
          p.includes('supabase/local/db imports only nothing'),
      ),
    ).toBe(true)
  })

  it('refuse a room importing the server that composes it', async () => {
    const found = await problems(
      'supabase/local/rest/query-parser.ts',
      "import { startHumoBackend } from '../server.ts'\nexport const probe = startHumoBackend\n",
    )
    expect(
      found.some(
        (p) =>
          p.startsWith('import-x/no-restricted-paths') &&
          p.includes('supabase/local/rest imports only'),
      ),
    ).toBe(true)
  })

  it('refuse a cycle inside a room', async () => {
    // tls-server.ts imports security-headers.ts; the probe makes security-headers import it back.
    const found = await problems(
      'supabase/local/http/security-headers.ts',
      "import { CA_PAGE_PATH } from './tls-server.ts'\nexport const probe = CA_PAGE_PATH\n",
    )
    expect(found.some((p) => p.startsWith('import-x/no-cycle'))).toBe(true)
  })

  it('let a room import the rooms below it', async () => {
    const found = await problems(
      'supabase/local/rest/query-parser.ts',
      "import { PostgrestError } from '../request/postgrest-errors.ts'\nexport const probe = PostgrestError\n",
    )
    expect(found.filter((p) => p.startsWith('import-x/'))).toEqual([])
  })
})
