/// <reference types="@rsbuild/core/types" />
import './settings.css';
import { useCurrentUser, useFirmProfile } from '@ledgerline/api';
import { Card, Tabs } from '@ledgerline/ui';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { BillingTab } from './BillingTab';
import { EntitiesTab } from './EntitiesTab';
import { FirmManagementTab } from './FirmManagementTab';
import { FirmTeamTab } from './FirmTeamTab';
import { OrganizationTab } from './OrganizationTab';
import { ProfileTab } from './ProfileTab';
import { SecurityTab } from './SecurityTab';
import { TAB_TITLES, resolveTab, searchForTab, settingsTabs, type SettingsTab } from './tabs';

/** The audit log is filled by its own issue (#21); until then its tab says so. */
function NotYetTab({ what }: { what: string }) {
  return (
    <Card title={what}>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {what} is not available yet. It arrives with its own release; nothing here is hidden from you in the meantime.
      </p>
    </Card>
  );
}

function tabContent(tab: SettingsTab) {
  switch (tab) {
    case 'profile':
      return <ProfileTab />;
    case 'entities':
      return <EntitiesTab />;
    case 'organization':
      return <OrganizationTab />;
    case 'audit-log':
      return <NotYetTab what="The audit log" />;
    case 'billing':
      return <BillingTab />;
    case 'firm-management':
      return <FirmManagementTab />;
    case 'firm-team-management':
      return <FirmTeamTab />;
    case 'security':
      return <SecurityTab />;
  }
}

/**
 * Exposed as `settings/SettingsPage`. Everything it needs arrives through shared singletons: the api client
 * and current user from @ledgerline/api's context, notices from @ledgerline/ui, the router from react-router.
 */
export function SettingsPage() {
  const user = useCurrentUser();
  // A business user who created or joined a firm also gets the firm's tabs (GET /accounting-firm/me: 404 = none).
  const firm = useFirmProfile({ enabled: user !== null });
  const [params, setParams] = useSearchParams();
  const tabs = settingsTabs({ userType: user?.userType, inFirm: Boolean(firm.data), hasWorkspace: Boolean(user?.workspace) });
  const requested = params.get('tab');
  // While the firm lookup is under way a firm tab asked for by the URL is not yet known to be the user's: wait
  // rather than show the profile and rewrite the link.
  const waiting = firm.isPending && user?.userType !== 'firm' && (requested === 'firm-management' || requested === 'firm-team-management');
  const tab = resolveTab(requested, tabs);
  const isFirmUser = user?.userType === 'firm';
  const root = useRef<HTMLDivElement>(null);
  // On a phone the tab row scrolls in itself: a tab opened by a link is brought into view.
  useEffect(() => {
    root.current?.querySelector('[role="tab"][aria-selected="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab, waiting]);

  return (
    // data-remote scopes this remote's stylesheet (postcss.config.mjs).
    <div ref={root} data-remote="settings" className="min-w-0">
      <div className="mb-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Settings</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {isFirmUser ? 'Your profile, your firm and its team.' : 'Your profile, your workspaces and your team.'}
        </p>
      </div>
      {!waiting && (
        <Tabs
          value={tab}
          onChange={(next) => setParams((p) => searchForTab(p, next))}
          items={tabs.map((value) => ({ value, label: TAB_TITLES[value], content: value === tab ? tabContent(value) : null }))}
        />
      )}
    </div>
  );
}
