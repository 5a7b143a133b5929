import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';

// Identical to the shell's list (frontends/shell/rsbuild.config.ts and frontends/settings): one copy of each at runtime.
const shared = {
  react: { singleton: true, requiredVersion: '19.3.1' },
  'react-dom': { singleton: true, requiredVersion: '19.3.1' },
  'react-router': { singleton: true, requiredVersion: '7.18.5' },
  '@tanstack/react-query': { singleton: true, requiredVersion: '5.108.0' },
  '@ledgerline/ui': { singleton: true, requiredVersion: '^0.1.0' },
  '@ledgerline/api': { singleton: true, requiredVersion: '^0.1.0' },
};

// Where the built files are served from; the manifest tells the shell to fetch chunks from here.
// `auto` (the default) makes one build relocatable: the runtime derives the prefix from the manifest's own
// URL, so the same dist works on :3002 for `npm start`, on a free port in tests and behind a CDN. Set
// ACCOUNTING_PUBLIC_URL only to pin an absolute origin.
const publicUrl = process.env.ACCOUNTING_PUBLIC_URL ?? 'auto';
const assetPrefix = publicUrl === 'auto' || publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;

export default defineConfig({
  plugins: [
    pluginReact(),
    pluginModuleFederation({
      name: 'accounting',
      exposes: { './AccountingPage': './src/AccountingPage.tsx', './TransactionsPage': './src/TransactionsPage.tsx' },
      shared,
      dts: false,
    }),
  ],
  source: { entry: { index: './src/index.ts' } },
  html: { title: 'Ledgerline accounting (remote)' },
  output: { assetPrefix },
  dev: { assetPrefix: 'http://localhost:3002/' },
  server: { port: 3002, cors: { origin: '*' } },
});
