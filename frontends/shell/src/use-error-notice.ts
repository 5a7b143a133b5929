import { describeError } from '@ledgerline/api';
import { useNotice } from '@ledgerline/ui';
import { useCallback } from 'react';

/** Shows a failed call per spec §8, unless the session handling already said 'Session expired'. */
export function useErrorNotice(): (error: unknown) => void {
  const notice = useNotice();
  return useCallback(
    (error: unknown) => {
      const shown = describeError(error);
      if (shown) notice.notify(shown);
    },
    [notice],
  );
}
