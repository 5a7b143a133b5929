import type { Knex, Migration } from '@ledgerline/platform';

/**
 * The vendor's / customer's name as written on a bill or invoice (billerName / customerName; null: none given, the
 * linked party's name is shown). It posts nothing and is no new version of the document (decision
 * 0027-document-api-completion).
 */
export const writtenNameMigration: Migration = {
  name: '20261128160000_documents_written_name',
  async up(knex) {
    await knex.raw('alter table documents add column written_name text');
  },
  async down(knex) {
    await knex.raw('alter table documents drop column if exists written_name');
  },
};

export async function setWrittenName(trx: Knex.Transaction, id: string, name: string | null): Promise<void> {
  await trx('documents').where({ id }).update({ written_name: name });
}

export async function writtenNames(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const rows = (await trx.raw('select id, written_name from documents where id = any(?::uuid[]) and written_name is not null', [[...ids]])).rows as {
    id: string;
    written_name: string;
  }[];
  for (const r of rows) out.set(r.id, r.written_name);
  return out;
}
