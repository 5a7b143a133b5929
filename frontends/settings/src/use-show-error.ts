import { describeError } from '@ledgerline/api';
import { useNotice } from '@ledgerline/ui';
import { useCallback } from 'react';

/** Spec §8 error notice, skipped when the shell's session handling already showed 'Session expired'. */
export function useShowError(): (error: unknown) => void {
  const notice = useNotice();
  return useCallback(
    (error: unknown) => {
      const shown = describeError(error);
      if (shown) notice.notify(shown);
    },
    [notice],
  );
}
