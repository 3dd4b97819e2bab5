// RxDB's dev-mode checks schemas and queries in tests; the production build leaves it out.
import { addRxPlugin } from 'rxdb'
import { RxDBDevModePlugin, disableWarnings } from 'rxdb/plugins/dev-mode'

disableWarnings()
addRxPlugin(RxDBDevModePlugin)
