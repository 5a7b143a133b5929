/// <reference types="@rsbuild/core/types" />
import './settings.css';
import { Tabs } from '@ledgerline/ui';
import { useSearchParams } from 'react-router';
import { ProfileTab } from './ProfileTab';
import { SecurityTab } from './SecurityTab';

type SettingsTab = 'profile' | 'security';

const isSettingsTab = (value: string | null): value is SettingsTab => value === 'profile' || value === 'security';

/**
 * Exposed as `settings/SettingsPage`. Everything it needs arrives through shared singletons: the api client
 * and current user from @ledgerline/api's context, notices from @ledgerline/ui, the router from react-router.
 */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: SettingsTab = isSettingsTab(requested) ? requested : 'profile';

  return (
    // data-remote scopes this remote's stylesheet (postcss.config.mjs).
    <div data-remote="settings">
      <div className="mb-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Settings</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Your profile and sign-in security.</p>
      </div>
      <Tabs
        value={tab}
        onChange={(next) =>
          setParams((p) => {
            const search = new URLSearchParams(p);
            search.set('tab', next);
            return search;
          })
        }
        items={[
          { value: 'profile', label: 'Profile', content: <ProfileTab /> },
          { value: 'security', label: 'Security', content: <SecurityTab /> },
        ]}
      />
    </div>
  );
}
