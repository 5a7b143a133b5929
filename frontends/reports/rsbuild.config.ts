import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { pluginPrecompress } from '../shell/server/precompress';
import { FEDERATION_SHARED, remoteSettings } from '../ui/federation';

export default defineConfig({
  plugins: [
    pluginReact(),
    // .br and .gz next to every text asset, served by frontends/shell/server/serve.ts.
    pluginPrecompress(),
    // The shared singletons and the rest of a remote's settings: the one preset (frontends/ui/federation.ts).
    pluginModuleFederation({
      name: 'reports',
      exposes: { './ReportsPage': './src/ReportsPage.tsx', './DashboardCharts': './src/DashboardCharts.tsx' },
      shared: FEDERATION_SHARED,
      dts: false,
    }),
  ],
  ...remoteSettings({ name: 'reports', port: 3003 }),
});
