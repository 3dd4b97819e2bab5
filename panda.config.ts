import { defineConfig } from '@pandacss/dev'
import { humoPreset } from './src/theme/preset'

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: ['./src/**/*.test.{ts,tsx}'],
  presets: ['@pandacss/preset-base', '@pandacss/preset-panda', humoPreset],
  jsxFramework: 'react',
  outdir: 'styled-system',
  importMap: 'styled-system',
})
