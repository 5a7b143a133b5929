import { newId, type Knex } from '@ledgerline/platform';
import type { BillerRow } from './rows.js';

/** A merchant name as billers keep it: trimmed, at most 200 characters ('' for none). */
export function billerName(name: string): string {
  return name.trim().slice(0, 200);
}

/** Finds or creates the biller of a name (case-insensitive). */
export async function billerFor(trx: Knex.Transaction, workspaceId: string, name: string): Promise<BillerRow | null> {
  const clean = billerName(name);
  if (!clean) return null;
  const r = await trx.raw(
    `with ins as (insert into billers (id, workspace_id, name) values (?, ?, ?) on conflict (workspace_id, lower(name)) do nothing returning id, workspace_id, name, category_id)
     select * from ins union all select id, workspace_id, name, category_id from billers where lower(name) = lower(?) limit 1`,
    [newId(), workspaceId, clean, clean],
  );
  const found = r.rows[0] as BillerRow | undefined;
  if (found) return found;
  // Another transaction inserted it after this statement's snapshot: read it now.
  return ((await trx('billers').whereRaw('lower(name) = lower(?)', [clean]).first()) as BillerRow | undefined) ?? null;
}

/**
 * Finds or creates the billers of many names (clean, distinct; case-insensitive) in one statement, by
 * name as given. A biller another transaction inserted after the statement's snapshot is read one by one (rare).
 */
export async function billersFor(trx: Knex.Transaction, workspaceId: string, names: readonly string[]): Promise<Map<string, BillerRow>> {
  const billers = new Map<string, BillerRow>();
  if (names.length === 0) return billers;
  const rows = (
    await trx.raw(
      `with i as (select * from unnest(?::uuid[], ?::text[]) with ordinality as i(id, name, n)),
     ins as (
       insert into billers (id, workspace_id, name)
       select distinct on (lower(i.name)) i.id, ?::uuid, i.name from i order by lower(i.name), i.n
       on conflict (workspace_id, lower(name)) do nothing returning id, name, category_id
     )
     select i.name as input, coalesce(x.id, b.id) as id, coalesce(x.name, b.name) as name, coalesce(x.category_id, b.category_id) as category_id
     from i left join ins x on lower(x.name) = lower(i.name) left join billers b on lower(b.name) = lower(i.name)`,
      [names.map(() => newId()), [...names], workspaceId],
    )
  ).rows as { input: string; id: string | null; name: string; category_id: string | null }[];
  for (const r of rows) if (r.id) billers.set(r.input, { id: r.id, workspace_id: workspaceId, name: r.name, category_id: r.category_id });
  for (const n of names) {
    if (billers.has(n)) continue;
    const b = await billerFor(trx, workspaceId, n);
    if (b) billers.set(n, b);
  }
  return billers;
}

/** Every biller of the workspace, by name (case-insensitive). */
export async function allBillers(trx: Knex.Transaction): Promise<BillerRow[]> {
  return (await trx('billers').orderByRaw('lower(name)')) as BillerRow[];
}

/** Locks a biller's row for the change, or undefined. */
export async function lockBiller(trx: Knex.Transaction, id: string): Promise<BillerRow | undefined> {
  return (await trx('billers').where({ id }).forUpdate().first()) as BillerRow | undefined;
}

export async function setBillerCategory(trx: Knex.Transaction, id: string, categoryId: string): Promise<void> {
  await trx('billers').where({ id }).update({ category_id: categoryId });
}
