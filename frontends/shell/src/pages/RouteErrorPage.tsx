import { Button, EmptyState, WarningIcon } from '@ledgerline/ui';
import { useRouteError } from 'react-router';

export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <EmptyState
      className="m-8"
      icon={<WarningIcon className="size-5" />}
      title="Something went wrong"
      description="This page failed to show. Reloading usually helps."
      action={<Button onClick={() => window.location.reload()}>Reload</Button>}
    />
  );
}
