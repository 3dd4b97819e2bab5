// Lint rules for the whole repo. The import zones below are DESIGN.md §2's import directions:
// routes → features → ui | data | lib; features never import each other; ui never imports data;
// sw imports only lib; nothing in src imports supabase/local.
import { readdirSync, existsSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import reactHooks from 'eslint-plugin-react-hooks'
import checkFile from 'eslint-plugin-check-file'
import globals from 'globals'

const features = existsSync('src/features')
  ? readdirSync('src/features', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : []

const zones = [
  {
    target: './src/ui',
    from: ['./src/data', './src/features', './src/routes'],
    message: 'ui never imports data, features or routes',
  },
  {
    target: './src/lib',
    from: ['./src/data', './src/features', './src/routes', './src/ui'],
    message: 'lib is framework-free and imports nothing above it',
  },
  {
    target: './src/data',
    from: ['./src/features', './src/routes', './src/ui'],
    message: 'data never imports features, routes or ui',
  },
  { target: './src/features', from: ['./src/routes'], message: 'features never import routes' },
  {
    target: './sw',
    from: ['./src/data', './src/features', './src/routes', './src/ui', './src/theme'],
    message: 'sw imports only src/lib',
  },
  { target: './src', from: ['./supabase/local'], message: 'nothing in src imports supabase/local' },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'features do not import each other; move shared things down to data, ui or lib',
  })),
]

// The server's rooms (supabase/local/README.md), each importing only the rooms below it:
// db, http and mail at the bottom; server.ts and main.ts at the top compose them. Test files and
// test harnesses may reach up (they start whole servers).
const serverRooms = {
  db: [],
  http: [],
  mail: [],
  auth: ['db', 'http', 'mail'],
  request: ['db', 'http', 'auth'],
  cache: ['db', 'http'],
  shop: ['db', 'http', 'request'],
  rest: ['db', 'http', 'auth', 'request', 'cache', 'shop'],
  site: ['db', 'http', 'request', 'cache'],
  storage: ['db', 'http', 'auth', 'request'],
  realtime: ['db', 'http', 'auth', 'request'],
  ops: ['db', 'http', 'auth', 'request', 'mail'],
}
export const serverZones = Object.entries(serverRooms).map(([room, below]) => ({
  target: `./supabase/local/${room}`,
  from: [
    './supabase/local/server.ts',
    './supabase/local/main.ts',
    ...Object.keys(serverRooms)
      .filter((other) => other !== room && !below.includes(other))
      .map((other) => `./supabase/local/${other}`),
  ],
  message: `supabase/local/${room} imports only ${below.length ? below.join(', ') : 'nothing of the server'} (supabase/local/README.md)`,
}))

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'styled-system',
      'src/route-tree.gen.ts',
      '.humo-data',
      '.humo-test-data',
      'test-results',
      'playwright-report',
      'tests/bench/reports',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['tsconfig.app.json', 'tsconfig.node.json', 'tsconfig.sw.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks, 'check-file': checkFile },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.app.json', 'tsconfig.node.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': 'off',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'check-file/filename-naming-convention': [
        'error',
        // Route files follow TanStack Router's file-route names (__root, $slug) instead.
        {
          '{src/!(routes)/**/,src/,sw/,supabase/**/,tests/**/,scripts/}*.{ts,tsx,js,mjs}':
            'KEBAB_CASE',
        },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': [
        'error',
        { '{src/!(routes)/**/,sw/**/,supabase/**/,tests/**/}': 'KEBAB_CASE' },
      ],
    },
  },
  {
    files: ['supabase/local/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*-testing.ts', '**/*-harness.ts'],
    // no-cycle reads the files an import leads to only with these (import-x's TypeScript preset).
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
)
