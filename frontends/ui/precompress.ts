/// <reference types="node" />
// Precompression of a built frontend: every text asset gets a `.br` (brotli, quality 11) and a `.gz` (gzip,
// level 9) sibling, written once at build time so the shell's server (frontends/shell/server/serve.ts) never
// compresses per request. Part of the Module Federation preset (federation.ts: `pluginPrecompress()` in the shell's
// and every remote's build); the server picks the sibling the browser accepts. Imported as `@ledgerline/ui/precompress`.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and fonts (woff2) are compressed already. */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.xml', '.ico']);

/** Below this the headers cost more than compression saves (nginx's gzip_min_length is of the same order). */
export const MIN_COMPRESS_BYTES = 256;

export interface PrecompressResult {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `<file>.br` and `<file>.gz` next to every compressible file under `dir` (at least MIN_COMPRESS_BYTES
 * and smaller once compressed). Idempotent: existing `.br`/`.gz` files are never compressed again.
 */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE_EXTENSIONS.has(extname(file).toLowerCase())) continue;
    if ((await stat(file)).size < MIN_COMPRESS_BYTES) continue;
    const body = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
      gzipAsync(body, { level: 9 }),
    ]);
    // A sibling that is not smaller would only cost the browser a decode: leave it out.
    if (br.length < body.length) await writeFile(`${file}.br`, br);
    if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
    result.files += 1;
    result.bytes += body.length;
    result.brotliBytes += Math.min(br.length, body.length);
    result.gzipBytes += Math.min(gz.length, body.length);
  }
  return result;
}

/** Minimal shape of the rsbuild plugin API used here (kept structural so this file needs no rsbuild types). */
interface PluginApi {
  onAfterBuild(fn: (params: { environments: Record<string, { distPath: string }> }) => Promise<void> | void): void;
}

/** An rsbuild plugin: precompresses each environment's dist once the production build has written it. */
export function pluginPrecompress(): { name: string; setup(api: PluginApi): void } {
  return {
    name: 'ledgerline:precompress',
    setup(api) {
      api.onAfterBuild(async ({ environments }) => {
        for (const { distPath } of Object.values(environments)) {
          const r = await precompressDir(distPath);
          const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
          process.stdout.write(`precompressed ${r.files} files in ${distPath}: ${kb(r.bytes)} → br ${kb(r.brotliBytes)}, gzip ${kb(r.gzipBytes)}\n`);
        }
      });
    },
  };
}
