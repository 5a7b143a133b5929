// The user limit of a workspace's plan (billing's plans, decision 0044): pure, no I/O.

/** Where the user upgrades (the settings billing tab). */
export const UPGRADE_PATH = '/settings?tab=billing';

/** The refusal when `countAfter` people would pass the plan's users (-1: unlimited); undefined: allowed. */
export function userLimitProblem(plan: { name: string; users: number }, countAfter: number): string | undefined {
  if (plan.users < 0 || countAfter <= plan.users) return undefined;
  return `Your ${plan.name} plan allows ${plan.users} ${plan.users === 1 ? 'user' : 'users'}. Upgrade your plan to add more: ${UPGRADE_PATH}`;
}
