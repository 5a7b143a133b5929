import { VIEWER_DISABLED_MESSAGE, canEdit, useCurrentUser } from '@ledgerline/api';

export interface EditAccess {
  canEdit: boolean;
  /** Why editing is disabled (spec §6), shown beside disabled controls; null when the user may edit. */
  reason: string | null;
}

/** Spec §6: a Viewer sees every editing control disabled with 'Editing actions are disabled for your account'. */
export function useEditAccess(): EditAccess {
  const user = useCurrentUser();
  const allowed = user !== null && canEdit(user.role);
  return { canEdit: allowed, reason: allowed ? null : VIEWER_DISABLED_MESSAGE };
}
