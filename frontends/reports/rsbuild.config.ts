import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';

// Identical to the shell's list (frontends/shell/rsbuild.config.ts and the other remotes): one copy of each at runtime.
const shared = {
  react: { singleton: true, requiredVersion: '19.3.1' },
  'react-dom': { singleton: true, requiredVersion: '19.3.1' },
  'react-router': { singleton: true, requiredVersion: '7.18.5' },
  '@tanstack/react-query': { singleton: true, requiredVersion: '5.108.0' },
  '@ledgerline/ui': { singleton: true, requiredVersion: '^0.1.0' },
  '@ledgerline/api': { singleton: true, requiredVersion: '^0.1.0' },
};

// Where the built files are served from; `auto` derives the prefix from the manifest's own URL, so one dist works
// on :3003 for `npm start`, on a free port in tests and behind a CDN. Set REPORTS_PUBLIC_URL only to pin an origin.
const publicUrl = process.env.REPORTS_PUBLIC_URL ?? 'auto';
const assetPrefix = publicUrl === 'auto' || publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;

export default defineConfig({
  plugins: [
    pluginReact(),
    pluginModuleFederation({
      name: 'reports',
      exposes: { './ReportsPage': './src/ReportsPage.tsx', './DashboardCharts': './src/DashboardCharts.tsx' },
      shared,
      dts: false,
    }),
  ],
  source: { entry: { index: './src/index.ts' } },
  html: { title: 'Ledgerline reports (remote)' },
  output: { assetPrefix },
  dev: { assetPrefix: 'http://localhost:3003/' },
  server: { port: 3003, cors: { origin: '*' } },
});
