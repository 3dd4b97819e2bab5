import { createFileRoute } from '@tanstack/react-router'
import { MenuPage } from '../../features/catalogue/components/menu-page'

export const Route = createFileRoute('/menu/')({ component: MenuPage })
