import { describe, expect, it } from 'vitest'
import { adminModulesIn, layoutFiles, routeLoad, staticClosure } from './check-budget.mjs'

// A tiny build manifest shaped like Vite's: an entry with a shared vendor chunk, two code-split
// routes (component and error pieces), a layout route, and a dialog loaded on demand.
const manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_vendor.js', '_menu-shell.js'],
    dynamicImports: [
      'src/routes/index.tsx?tsr-split=component',
      'src/routes/menu/$category.tsx?tsr-split=component',
      'src/routes/menu/$category.tsx?tsr-split=errorComponent---notFoundComponent',
      'src/routes/menu.tsx?tsr-split=component',
      'src/routes/admin.tsx?tsr-split=component',
    ],
  },
  '_vendor.js': { file: 'assets/vendor.js', imports: ['_tiny.js'] },
  '_tiny.js': { file: 'assets/tiny.js' },
  '_menu-shell.js': { file: 'assets/menu-shell.js', imports: ['_vendor.js'] },
  '_grid.js': { file: 'assets/grid.js', imports: ['_vendor.js'], dynamicImports: ['_dialog.js'] },
  '_dialog.js': { file: 'assets/dialog.js', isDynamicEntry: true },
  'src/routes/index.tsx?tsr-split=component': {
    file: 'assets/home.js',
    isDynamicEntry: true,
    imports: ['_grid.js'],
  },
  'src/routes/menu/$category.tsx?tsr-split=component': {
    file: 'assets/category.js',
    isDynamicEntry: true,
    imports: ['_grid.js', '_filters.js'],
  },
  'src/routes/menu/$category.tsx?tsr-split=errorComponent---notFoundComponent': {
    file: 'assets/category-error.js',
    isDynamicEntry: true,
  },
  'src/routes/menu.tsx?tsr-split=component': {
    file: 'assets/menu-layout.js',
    isDynamicEntry: true,
  },
  'src/routes/admin.tsx?tsr-split=component': {
    file: 'assets/admin.js',
    isDynamicEntry: true,
    imports: ['_charts.js'],
  },
  '_filters.js': { file: 'assets/filters.js' },
  '_charts.js': { file: 'assets/charts.js' },
}

const files = (keys) => [...keys].map((key) => manifest[key].file).sort()

describe('staticClosure', () => {
  it('follows static imports transitively and counts a shared chunk once', () => {
    expect(files(staticClosure(manifest, ['index.html']))).toEqual([
      'assets/index.js',
      'assets/menu-shell.js',
      'assets/tiny.js',
      'assets/vendor.js',
    ])
  })

  it('refuses a key the manifest does not have', () => {
    expect(() => staticClosure(manifest, ['_missing.js'])).toThrow(/no _missing\.js/)
  })
})

describe('routeLoad', () => {
  it("adds the route's component chunk and its imports, not on-demand dialogs", () => {
    expect(files(routeLoad(manifest, 'src/routes/index.tsx', { boot: [] }))).toEqual([
      'assets/grid.js',
      'assets/home.js',
      'assets/index.js',
      'assets/menu-shell.js',
      'assets/tiny.js',
      'assets/vendor.js',
    ])
  })

  it('adds the layout route above, and leaves out the error and not-found pieces', () => {
    const loaded = files(routeLoad(manifest, 'src/routes/menu/$category.tsx', { boot: [] }))
    expect(loaded).toContain('assets/menu-layout.js')
    expect(loaded).toContain('assets/filters.js')
    expect(loaded).not.toContain('assets/category-error.js')
    expect(loaded).not.toContain('assets/admin.js')
    expect(loaded).not.toContain('assets/dialog.js')
  })

  it('counts the dynamic imports performed at boot', () => {
    const loaded = files(routeLoad(manifest, 'src/routes/index.tsx', { boot: ['_dialog.js'] }))
    expect(loaded).toContain('assets/dialog.js')
    expect(() => routeLoad(manifest, 'src/routes/index.tsx', { boot: ['_gone.js'] })).toThrow(
      /boot import _gone\.js/,
    )
  })

  it('refuses a route that is in neither a split nor the entry', () => {
    expect(() => routeLoad(manifest, 'src/routes/nowhere.tsx', { boot: [] })).toThrow(
      /neither code-split/,
    )
  })
})

describe('layoutFiles', () => {
  it('lists the layout route files that can wrap a nested route', () => {
    expect(layoutFiles('src/routes/menu/$category.tsx')).toEqual([
      'src/routes/menu.tsx',
      'src/routes/menu/route.tsx',
    ])
    expect(layoutFiles('src/routes/index.tsx')).toEqual([])
  })
})

describe('adminModulesIn', () => {
  it('finds admin features, admin route components and admin-only packages', () => {
    const chunkModules = {
      'assets/index.js': {
        'src/routes/admin.tsx': 250,
        'src/features/catalogue/menu-filter.ts': 900,
        'node_modules/react-dom/client.js': 400,
      },
      'assets/vendor.js': {
        'node_modules/recharts/es6/index.js': 100,
        'node_modules/@dnd-kit/core/dist/core.esm.js': 100,
        'src/features/admin/admin-csv.ts': 100,
        'src/routes/admin.tsx?tsr-split=component': 75,
      },
    }
    expect(adminModulesIn(chunkModules, ['assets/index.js'])).toEqual([])
    expect(
      adminModulesIn(chunkModules, ['assets/index.js', 'assets/vendor.js']).map((a) => a.id),
    ).toEqual([
      'node_modules/recharts/es6/index.js',
      'node_modules/@dnd-kit/core/dist/core.esm.js',
      'src/features/admin/admin-csv.ts',
      'src/routes/admin.tsx?tsr-split=component',
    ])
  })
})
