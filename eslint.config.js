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
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
)
