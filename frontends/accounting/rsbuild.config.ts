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
      name: 'accounting',
      exposes: {
        './AccountingPage': './src/AccountingPage.tsx',
        './TransactionsPage': './src/TransactionsPage.tsx',
        './RevenuePage': './src/RevenuePage.tsx',
        './ExpensesPage': './src/ExpensesPage.tsx',
      },
      shared: FEDERATION_SHARED,
      dts: false,
    }),
  ],
  ...remoteSettings({ name: 'accounting', port: 3002 }),
});
