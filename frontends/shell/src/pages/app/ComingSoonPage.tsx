import { EmptyState } from '@ledgerline/ui';
import { PageHeader } from './PageHeader';

/** A route the spec names whose screen a later issue builds; it says what will be here instead of faking it. */
export function ComingSoonPage({ title, description, coming }: { title: string; description?: string; coming: string }) {
  return (
    <>
      <PageHeader title={title} {...(description ? { description } : {})} />
      <EmptyState title={`${title} is not built yet`} description={coming} />
    </>
  );
}
