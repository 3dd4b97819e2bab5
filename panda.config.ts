import { defineConfig } from '@pandacss/dev'
import { basePreset } from './src/theme/base-preset'
import { humoPreset } from './src/theme/preset'

export default defineConfig({
  preflight: true,
  // The presets below are the whole list: Panda's base preset is replaced by basePreset.
  eject: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: ['./src/**/*.test.{ts,tsx}'],
  presets: [basePreset, '@pandacss/preset-panda', humoPreset],
  jsxFramework: 'react',
  outdir: 'styled-system',
  importMap: 'styled-system',
})
