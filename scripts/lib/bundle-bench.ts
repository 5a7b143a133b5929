/// <reference types="node" />
// `npm run bench -- bundle`: the JavaScript a signed-out first visit fetches, per public page and encoding, with every
// script named, measured on the production build in Chromium with an empty cache (frontends/shell/test/first-load.ts,
// the same measurement as the budget test).
import { launchBrowser } from '../../frontends/shell/test/browser.js';
import { FIRST_LOAD_BUDGET_BYTES, PUBLIC_PAGES, measurePage, serveBuiltApp, type PageLoad } from '../../frontends/shell/test/first-load.js';

export async function benchBundle(): Promise<PageLoad[]> {
  const servers = await serveBuiltApp();
  const browser = await launchBrowser();
  try {
    const loads: PageLoad[] = [];
    for (const { route, drawn } of PUBLIC_PAGES)
      for (const encoding of ['br', 'gzip'] as const) loads.push(await measurePage(browser, servers.webUrl, route, drawn, encoding));
    return loads;
  } finally {
    await browser.close();
    await servers.close();
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function bundleReport(loads: PageLoad[]): string {
  const login = loads.find((l) => l.route === '/login' && l.encoding === 'gzip');
  return [
    'Bytes of each script body on the wire (DevTools protocol: Network.loadingFinished less the response headers), the',
    'browser pinned to one Accept-Encoding per row; "decoded" is what the engine parses. The page counts as loaded when',
    'its form shows and the network is idle. The budget test (frontends/shell/test/first-load.test.ts) holds every row to',
    `${kB(FIRST_LOAD_BUDGET_BYTES)}.`,
    '',
    '| page | encoding | scripts | JavaScript on the wire | decoded | budget |',
    '|---|---|---|---|---|---|',
    ...loads.map(
      (l) =>
        `| ${l.route} | ${l.encoding} | ${l.scripts.length} | **${kB(l.jsBytes)}** | ${kB(l.jsDecoded)} | ${l.jsBytes <= FIRST_LOAD_BUDGET_BYTES ? 'met' : '**not met**'} |`,
    ),
    '',
    ...(login
      ? [
          '## /login (gzip), script by script',
          '',
          '| script | gzip | decoded |',
          '|---|---|---|',
          ...[...login.scripts]
            .sort((a, b) => b.bodyBytes - a.bodyBytes)
            .map((s) => `| ${new URL(s.url).pathname} | ${kB(s.bodyBytes)} | ${kB(s.decodedBytes)} |`),
          '',
        ]
      : []),
    '## Before and after (issue #13)',
    '',
    'The same measurement on the build before the change, for the record: /login fetched 288.0 kB of gzip (250.7 kB of',
    'br) in 15 scripts. The shared React Router was the whole package (48.5 + 14.2 kB: server rendering, sessions and',
    "cookies came with it), and the ui kit's shared chunk carried Headless UI and its positioning library (37.4 + 29.5",
    'kB). Now the router is shared as the part the app uses (frontends/ui/shared/react-router.js) and the Headless UI',
    'components load in their own chunk with the pages that show them (frontends/ui/src/widgets.ts).',
  ].join('\n');
}
