import { remoteConfig } from '@ledgerline/ui/federation';

// The one Module Federation preset (frontends/ui/federation.ts): only what differs from the other remotes.
export default remoteConfig({ name: 'settings', port: 3001, exposes: { './SettingsPage': './src/SettingsPage.tsx' } });
