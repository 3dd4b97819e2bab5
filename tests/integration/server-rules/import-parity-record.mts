// Records what admin_import_products does with each of import-parity-cases.ts's imports into
// import-parity-expected.json. It was first run against the row-by-row import of docs/decisions/031-set-based-import.md (at
// 17eac52); the parity test then holds every later import to it.
//
// That import was admin_save_product row after row, in one transaction, each refusal re-raised
// with its row named. When cases were added with the product's facts (issue 31), the recording
// was made again with that same import, recreated here as a temporary function over today's
// admin_save_product: the outcomes of the earlier cases came out as recorded at 17eac52, with the
// facts' defaults added to every product.
// Run: npx tsx tests/integration/server-rules/import-parity-record.mts
import { writeFileSync } from 'node:fs'
import { createUser, startRulesBackend } from './rules-backend'
import { PARITY_CASES, paritySnapshot, seedParityCatalogue } from './import-parity-cases'

/** Decision 031's admin_import_products (migration 20261122202900), as the reference. */
const ROW_BY_ROW_IMPORT = `
create or replace function pg_temp.row_by_row_import(p_rows jsonb)
returns jsonb
language plpgsql
as $$
declare
  v_row jsonb;
  v_n integer;
  v_saved jsonb;
  v_ids jsonb := '[]'::jsonb;
  v_created integer := 0;
  v_state text;
  v_message text;
  v_sku text;
begin
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a JSON list of products' using errcode = '22023';
  end if;
  for v_row, v_n in select value, ordinality from jsonb_array_elements(p_rows) with ordinality loop
    v_sku := case when jsonb_typeof(v_row) = 'object' then nullif(trim(coalesce(v_row ->> 'sku', '')), '') end;
    begin
      v_saved := public.admin_save_product(v_row);
    exception when others then
      get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
      raise exception 'Row %: %', v_n || coalesce(' (SKU ' || v_sku || ')', ''), v_message
        using errcode = v_state;
    end;
    v_ids := v_ids || jsonb_build_array(v_saved -> 'id');
    if (v_saved ->> 'created')::boolean then
      v_created := v_created + 1;
    end if;
  end loop;
  return jsonb_build_object('count', jsonb_array_length(v_ids), 'created', v_created,
    'updated', jsonb_array_length(v_ids) - v_created, 'ids', v_ids);
end;
$$;
`

const backend = await startRulesBackend()
try {
  const admin = await createUser(backend, { admin: true, email: 'parity@humo.test' })
  await seedParityCatalogue(backend)
  await backend.db.exec(ROW_BY_ROW_IMPORT)
  const outcomes = []
  for (const c of PARITY_CASES) {
    let outcome: { error: { message: string; code: string } | null; data: unknown }
    try {
      const { rows } = await backend.db.transaction(async (tx) => {
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify({ role: 'authenticated', sub: admin.id }),
        ])
        return tx.query<{ result: unknown }>(
          'select pg_temp.row_by_row_import($1::jsonb) as result',
          [JSON.stringify(c.rows)],
        )
      })
      outcome = { error: null, data: rows[0]!.result }
    } catch (error) {
      const e = error as { message: string; code: string }
      outcome = { error: { message: e.message, code: e.code }, data: null }
    }
    outcomes.push({ name: c.name, ...outcome, catalogue: await paritySnapshot(backend) })
  }
  writeFileSync(
    new URL('./import-parity-expected.json', import.meta.url),
    `${JSON.stringify(outcomes, null, 2)}\n`,
  )
} finally {
  await backend.close()
}
