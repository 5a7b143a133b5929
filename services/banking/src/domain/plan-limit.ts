// The bank-account limit of a workspace's plan (billing's plans, decision 0044): pure, no I/O.

/** The error code a client reads to show the upgrade link. */
export const PLAN_LIMIT_REACHED = 'PLAN_LIMIT_REACHED';

/** Where the user upgrades (the settings billing tab). */
export const UPGRADE_PATH = '/settings?tab=billing';

/** The refusal when `countAfter` live accounts would pass the plan's limit (-1: unlimited); undefined: allowed. */
export function bankAccountLimitProblem(plan: { name: string; bankAccounts: number }, countAfter: number): string | undefined {
  if (plan.bankAccounts < 0 || countAfter <= plan.bankAccounts) return undefined;
  const noun = plan.bankAccounts === 1 ? 'bank account' : 'bank accounts';
  return `Your ${plan.name} plan allows ${plan.bankAccounts} ${noun}. Upgrade your plan to add more: ${UPGRADE_PATH}`;
}
