// `npm run gen:types`: regenerates supabase/local/rest/api-types.ts from supabase/migrations (runs them
// on an in-memory PGlite and reads the schema back). Run it after changing a migration;
// supabase/local/rest/api-types.test.ts fails until the committed file matches.
import { writeFile } from 'node:fs/promises'
import { relative } from 'node:path'
import { API_TYPES_FILE, generateApiTypes } from '../supabase/local/rest/api-types-generator.ts'

const started = performance.now()
await writeFile(API_TYPES_FILE, await generateApiTypes())
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(`Wrote ${relative(process.cwd(), API_TYPES_FILE)} in ${seconds} s`)
