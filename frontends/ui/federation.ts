// The one Module Federation preset of the web app (issue #14): the shared singletons the shell and every remote
// agree on, and the whole rsbuild config around them. Each `frontends/<name>/rsbuild.config.ts` is one call with only
// what differs (`remoteConfig({ name, port, exposes })`, `shellConfig({ port, html })`); `npm run new:remote` writes a
// config that makes the same call. Imported as `@ledgerline/ui/federation`.
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type RsbuildConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { pluginPrecompress } from './precompress';

const here = dirname(fileURLToPath(import.meta.url));
const reactRouterDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

/**
 * React Router's own entry under a name the share scope does not answer, for shared/react-router.js; the browser
 * build of the package (its `module` export), the same files `react-router/dom` imports, so the shell's
 * RouterProvider and every screen's hooks share one router context.
 */
export const FEDERATION_RESOLVE: NonNullable<RsbuildConfig['resolve']> = {
  alias: { '@ledgerline/react-router-entry$': join(reactRouterDir, 'dist/development/index.mjs') },
};

/**
 * One copy of each across the shell and every remote ("Invalid hook call" otherwise); @ledgerline/api and
 * @ledgerline/ui carry React contexts (api client, current user, notices, theme) that remotes must share.
 */
export const FEDERATION_SHARED = {
  react: { singleton: true, requiredVersion: '19.3.1' },
  'react-dom': { singleton: true, requiredVersion: '19.3.1' },
  // Only the part of the router the web app uses (shared/react-router.js): a shared module is never tree-shaken
  // (decision 0016).
  'react-router': { singleton: true, requiredVersion: '7.18.5', version: '7.18.5', import: join(here, 'shared/react-router.js') },
  '@tanstack/react-query': { singleton: true, requiredVersion: '5.108.0' },
  '@ledgerline/ui': { singleton: true, requiredVersion: '^0.1.0' },
  '@ledgerline/api': { singleton: true, requiredVersion: '^0.1.0' },
};

/** What the shell and every remote build with: React, the precompressed assets and the federation plugin on the shared list. */
function federatedApp(federation: { name: string; exposes?: Record<string, string>; remotes?: Record<string, string> }): RsbuildConfig {
  return {
    plugins: [
      pluginReact(),
      // .br and .gz next to every text asset, served by frontends/shell/server/serve.ts.
      pluginPrecompress(),
      pluginModuleFederation({ ...federation, shared: FEDERATION_SHARED, dts: false }),
    ],
    source: { entry: { index: './src/index.ts' } },
    resolve: FEDERATION_RESOLVE,
  };
}

export interface RemoteOptions {
  /** The remote's name: its federation container, `<NAME>_PUBLIC_URL`, the registry's REMOTES entry. */
  name: string;
  /** Its port under `npm start` and `npm run dev` (the registry's REMOTES). */
  port: number;
  /** What the shell may load from it: `{ './SettingsPage': './src/SettingsPage.tsx' }`. */
  exposes: Record<string, string>;
}

/**
 * A remote's whole rsbuild config. Where the built files are served from: the manifest tells the shell to fetch chunks
 * from there; `auto` (the default) derives the prefix from the manifest's own URL, so one dist works on its port under
 * `npm start`, on a free port in tests and behind a CDN. `<NAME>_PUBLIC_URL` pins an absolute origin.
 */
export function remoteConfig({ name, port, exposes }: RemoteOptions): RsbuildConfig {
  const publicUrl = process.env[`${name.toUpperCase()}_PUBLIC_URL`] ?? 'auto';
  const assetPrefix = publicUrl === 'auto' || publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
  return defineConfig({
    ...federatedApp({ name, exposes }),
    html: { title: `Ledgerline ${name} (remote)` },
    output: { assetPrefix },
    dev: { assetPrefix: `http://localhost:${port}/` },
    server: { port, cors: { origin: '*' } },
  });
}

/**
 * The shell's whole rsbuild config: the host lists no remotes (it registers them at run time from /config.json,
 * frontends/shell/src/federation.ts) and falls back to index.html for its client routes.
 */
export function shellConfig({ port, html }: { port: number; html: NonNullable<RsbuildConfig['html']> }): RsbuildConfig {
  return defineConfig({
    ...federatedApp({ name: 'shell', remotes: {} }),
    html,
    server: { port, historyApiFallback: true },
  });
}
