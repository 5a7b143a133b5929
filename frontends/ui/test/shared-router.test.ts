/// <reference types="node" />
// The web app shares one React Router, and only the names listed in shared/react-router.js (a shared module is not
// tree-shaken: see that file). A screen that imports any other name from 'react-router' would get `undefined` at run
// time, in the built app only; this test names it first.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const frontends = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return /\.(ts|tsx|js|jsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Value names each file imports from 'react-router' (type-only imports are erased and need nothing at run time). */
function routerImports(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]react-router['"]/g)) {
    if (match[1]) continue;
    for (const part of match[2]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]!;
      if (name && !name.startsWith('type ')) names.push(name);
    }
  }
  return names;
}

const shared = readFileSync(join(frontends, 'ui/shared/react-router.js'), 'utf8');
const provided = new Set(
  [...shared.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  ),
);

describe('the shared React Router', () => {
  it('reads the names a file imports', () => {
    expect(routerImports("import { Link, type LinkProps, useNavigate as go } from 'react-router';\nimport type { To } from 'react-router';")).toEqual([
      'Link',
      'useNavigate',
    ]);
    expect(provided.has('useSearchParams')).toBe(true);
  });

  it('provides every name a screen imports from react-router', () => {
    const files = readdirSync(frontends, { withFileTypes: true })
      .filter((d) => d.isDirectory() && readdirSync(join(frontends, d.name)).includes('src'))
      .flatMap((d) => sources(join(frontends, d.name, 'src')));
    const missing: string[] = [];
    let seen = 0;
    for (const file of files) {
      for (const name of routerImports(readFileSync(file, 'utf8'))) {
        seen++;
        if (!provided.has(name)) missing.push(`${file.slice(frontends.length)}: ${name}`);
      }
    }
    expect(seen).toBeGreaterThan(20);
    expect(missing).toEqual([]);
    // Namespace imports would reach past the list.
    expect(files.filter((file) => /import\s+\*\s+as\s+\w+\s+from\s+['"]react-router['"]/.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});
