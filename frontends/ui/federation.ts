// The one Module Federation preset of the web app (issue #14): the shared singletons the shell and every
// remote agree on, and what a remote's rsbuild config sets besides its plugins. Read by the rsbuild configs
// of the shell and each remote (frontends/<name>/rsbuild.config.ts); `npm run new:remote` writes a config
// that uses it.
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { RsbuildConfig } from '@rsbuild/core';

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
  // Only the part of the router the web app uses (shared/react-router.js): a shared module is never tree-shaken.
  'react-router': { singleton: true, requiredVersion: '7.18.5', version: '7.18.5', import: join(here, 'shared/react-router.js') },
  '@tanstack/react-query': { singleton: true, requiredVersion: '5.108.0' },
  '@ledgerline/ui': { singleton: true, requiredVersion: '^0.1.0' },
  '@ledgerline/api': { singleton: true, requiredVersion: '^0.1.0' },
};

/**
 * A remote's entry, page title, output and dev server. Where the built files are served from: the manifest tells
 * the shell to fetch chunks from there; `auto` (the default) derives the prefix from the manifest's own URL, so one
 * dist works on its port under `npm start`, on a free port in tests and behind a CDN. `<NAME>_PUBLIC_URL` pins an
 * absolute origin.
 */
export function remoteSettings({
  name,
  port,
}: {
  name: string;
  port: number;
}): Pick<RsbuildConfig, 'source' | 'resolve' | 'html' | 'output' | 'dev' | 'server'> {
  const publicUrl = process.env[`${name.toUpperCase()}_PUBLIC_URL`] ?? 'auto';
  const assetPrefix = publicUrl === 'auto' || publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
  return {
    source: { entry: { index: './src/index.ts' } },
    resolve: FEDERATION_RESOLVE,
    html: { title: `Ledgerline ${name} (remote)` },
    output: { assetPrefix },
    dev: { assetPrefix: `http://localhost:${port}/` },
    server: { port, cors: { origin: '*' } },
  };
}
