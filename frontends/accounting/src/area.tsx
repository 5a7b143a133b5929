import { EmptyState, Tabs } from '@ledgerline/ui';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

/** The shell's description of an area (frontends/shell/src/pages/app/areas.ts), handed to this remote's pages. */
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

/**
 * An area's header and its spec tabs in the `tab` query parameter: tabs this remote builds render `built[tab]`,
 * the others say what they will hold. Changing tab drops the other tab's query parameters.
 */
export function AreaTabs({ area, built, actions }: { area: Area; built: Readonly<Record<string, () => ReactNode>>; actions?: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const current = requested !== null && area.tabs.some((t) => t.value === requested) ? requested : (area.tabs[0]?.value ?? '');
  return (
    // data-remote scopes this remote's stylesheet (postcss.config.mjs).
    <div data-remote="accounting">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{area.title}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{area.description}</p>
        </div>
        {actions}
      </div>
      <Tabs
        value={current}
        onChange={(tab) => setParams(new URLSearchParams({ tab }))}
        items={area.tabs.map((tab) => ({
          value: tab.value,
          label: tab.label,
          content: tab.value === current ? (built[tab.value]?.() ?? <EmptyState title={`${tab.label} is not built yet`} description={tab.coming} />) : null,
        }))}
      />
    </div>
  );
}
