import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from './EmptyState';
import { Tabs } from './Deferred';

/** The shell's description of an area (frontends/shell/src/pages/app/areas.ts), handed to a remote's pages. */
export interface AreaTab {
  value: string;
  label: string;
  coming: string;
}

export interface Area {
  title: string;
  description: string;
  tabs: readonly AreaTab[];
}

export interface AreaPageProps {
  area: Area;
}

export interface AreaTabsProps {
  /** The remote rendering the area: `data-remote` scopes its stylesheet (@ledgerline/ui/postcss-remote). */
  remote: string;
  area: Area;
  built: Readonly<Record<string, () => ReactNode>>;
  actions?: ReactNode;
  /** Query parameters every tab shares (the reports' period), kept when the tab changes. */
  keep?: readonly string[];
}

/**
 * An area's header and its spec tabs in the `tab` query parameter: tabs the remote builds render `built[tab]`,
 * the others say what they will hold. Changing tab drops the other tab's query parameters, except those in `keep`.
 */
export function AreaTabs({ remote, area, built, actions, keep = [] }: AreaTabsProps) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const current = requested !== null && area.tabs.some((t) => t.value === requested) ? requested : (area.tabs[0]?.value ?? '');
  return (
    <div data-remote={remote}>
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{area.title}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{area.description}</p>
        </div>
        {actions}
      </div>
      <Tabs
        value={current}
        onChange={(tab) => {
          const next = new URLSearchParams({ tab });
          for (const name of keep) {
            const value = params.get(name);
            if (value !== null) next.set(name, value);
          }
          setParams(next);
        }}
        items={area.tabs.map((tab) => ({
          value: tab.value,
          label: tab.label,
          content: tab.value === current ? (built[tab.value]?.() ?? <EmptyState title={`${tab.label} is not built yet`} description={tab.coming} />) : null,
        }))}
      />
    </div>
  );
}
