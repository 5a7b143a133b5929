import type { Db } from './banking-store.js';

export interface WorkspacePlanRow {
  workspace_id: string;
  plan_id: string;
  plan_name: string;
  bank_accounts: number;
  changed_at: Date;
}

/** Banking's copy of the workspaces' plan limits (billing.plan_changed, decision 0044). */
export const workspacePlans = {
  /** The workspace's plan, its row locked until the caller's transaction ends (links of one workspace take turns). */
  lockOf: (db: Db, workspaceId: string) => db<WorkspacePlanRow>('workspace_plans').where({ workspace_id: workspaceId }).forUpdate().first(),
  /** Keeps the newest change: an older one arriving late replaces nothing. */
  apply: async (db: Db, row: WorkspacePlanRow): Promise<void> => {
    await db('workspace_plans')
      .insert(row)
      .onConflict('workspace_id')
      .merge(['plan_id', 'plan_name', 'bank_accounts', 'changed_at'])
      .where('workspace_plans.changed_at', '<=', row.changed_at);
  },
};
