import { EmptyState } from '@ledgerline/ui';
import { TextLink } from '../layout/TextLink';

export function NotFoundPage() {
  return (
    <EmptyState
      className="m-8"
      title="Page not found"
      description="There is nothing at this address."
      action={<TextLink to="/dashboard">Go to the dashboard</TextLink>}
    />
  );
}
