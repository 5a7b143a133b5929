import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';

// One copy of each across the shell and every remote ("Invalid hook call" otherwise); @ledgerline/api and
// @ledgerline/ui carry React contexts (api client, current user, notices, theme) that remotes must share.
// Kept identical in frontends/settings/rsbuild.config.ts.
const shared = {
  react: { singleton: true, requiredVersion: '19.3.1' },
  'react-dom': { singleton: true, requiredVersion: '19.3.1' },
  'react-router': { singleton: true, requiredVersion: '7.18.5' },
  '@tanstack/react-query': { singleton: true, requiredVersion: '5.108.0' },
  '@ledgerline/ui': { singleton: true, requiredVersion: '^0.1.0' },
  '@ledgerline/api': { singleton: true, requiredVersion: '^0.1.0' },
};

// Applies the stored theme before the first paint so a dark-mode user never sees a white flash.
const themeScript = `try{var t=localStorage.getItem('ledgerline:theme');if(t==='dark'||(!t&&matchMedia('(prefers-color-scheme: dark)').matches))document.documentElement.classList.add('dark')}catch(e){}`;

export default defineConfig({
  plugins: [
    pluginReact(),
    // Remotes are registered at runtime from /config.json (src/federation.ts), so none are listed here.
    pluginModuleFederation({ name: 'shell', remotes: {}, shared, dts: false }),
  ],
  source: { entry: { index: './src/index.ts' } },
  html: {
    title: 'Ledgerline',
    tags: [{ tag: 'script', children: themeScript, head: true, append: false }],
    meta: { description: 'Ledgerline: bookkeeping and accounting for startups and the firms that keep their books.' },
  },
  server: { port: 3000, historyApiFallback: true },
});
