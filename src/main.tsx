import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from '@tanstack/react-router'
import './index.css'
import { DataProvider } from './data/data-context'
import { startHumoData } from './data/humo-data'
import { startInstallPrompt } from './features/pwa/install-prompt'
import { startMediaWarming } from './features/pwa/media-warming'
import { serviceWorkerEnabled, startServiceWorker } from './features/pwa/service-worker'
import { createHumoRouter } from './router'

startInstallPrompt()
const data = await startHumoData()
const router = createHumoRouter(data)
startServiceWorker()
if (serviceWorkerEnabled()) startMediaWarming(data)

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')
createRoot(root).render(
  <StrictMode>
    <DataProvider data={data}>
      <RouterProvider router={router} />
    </DataProvider>
  </StrictMode>,
)
