import { remoteConfig } from '@ledgerline/ui/federation';

// The one Module Federation preset (frontends/ui/federation.ts): only what differs from the other remotes.
export default remoteConfig({
  name: 'reports',
  port: 3003,
  exposes: { './ReportsPage': './src/ReportsPage.tsx', './DashboardCharts': './src/DashboardCharts.tsx' },
});
