import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { pluginPrecompress } from './server/precompress';
import { FEDERATION_RESOLVE, FEDERATION_SHARED } from '../ui/federation';

// Applies the stored theme before the first paint so a dark-mode user never sees a white flash.
const themeScript = `try{var t=localStorage.getItem('ledgerline:theme');if(t==='dark'||(!t&&matchMedia('(prefers-color-scheme: dark)').matches))document.documentElement.classList.add('dark')}catch(e){}`;

export default defineConfig({
  plugins: [
    pluginReact(),
    // .br and .gz next to every text asset, served by frontends/shell/server/serve.ts.
    pluginPrecompress(),
    // Remotes are registered at runtime from /config.json (src/federation.ts), so none are listed here.
    pluginModuleFederation({ name: 'shell', remotes: {}, shared: FEDERATION_SHARED, dts: false }),
  ],
  source: { entry: { index: './src/index.ts' } },
  resolve: FEDERATION_RESOLVE,
  html: {
    title: 'Ledgerline',
    tags: [{ tag: 'script', children: themeScript, head: true, append: false }],
    meta: { description: 'Ledgerline: bookkeeping and accounting for startups and the firms that keep their books.' },
  },
  server: { port: 3000, historyApiFallback: true },
});
