import { EmptyState, Tabs } from '@ledgerline/ui';
import { useSearchParams } from 'react-router';
import type { Area } from './areas';
import { PageHeader } from './PageHeader';

/** An area with its spec tabs in the `tab` query parameter, each saying honestly what it will hold. */
export function AreaPage({ area }: { area: Area }) {
  const [params, setParams] = useSearchParams();
  const first = area.tabs[0]?.value ?? '';
  const requested = params.get('tab');
  const current = area.tabs.some((t) => t.value === requested) && requested !== null ? requested : first;

  return (
    <>
      <PageHeader title={area.title} description={area.description} />
      <Tabs
        value={current}
        onChange={(tab) =>
          setParams((p) => {
            const next = new URLSearchParams(p);
            next.set('tab', tab);
            return next;
          })
        }
        items={area.tabs.map((tab) => ({
          value: tab.value,
          label: tab.label,
          content: <EmptyState title={`${tab.label} is not built yet`} description={tab.coming} />,
        }))}
      />
    </>
  );
}
