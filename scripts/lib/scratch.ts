// A scratch copy of the checkout for trying the generators: the files git tracks (and untracked ones it
// does not ignore), a node_modules folder whose entries link to the real one's, and the workspace packages
// linked to the copy's own folders (so the copy's code runs, not the checkout's).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Scratch {
  dir: string;
  remove(): void;
}

export function makeScratch(root: string, prefix = 'ledgerline-scratch-'): Scratch {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\0')
      .filter((f) => f !== '');
    const made = new Set<string>();
    for (const file of files) {
      const folder = dirname(join(dir, file));
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      // A file git lists but the checkout deleted (not yet committed) is skipped.
      try {
        cpSync(join(root, file), join(dir, file), { verbatimSymlinks: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    const modules = join(root, 'node_modules');
    mkdirSync(join(dir, 'node_modules'));
    for (const entry of readdirSync(modules)) {
      if (entry === '@ledgerline' || entry === '.vite' || entry === '.vitest') continue;
      symlinkSync(join(modules, entry), join(dir, 'node_modules', entry));
    }
    // The workspace packages: the same relative links npm made, now resolving inside the copy.
    mkdirSync(join(dir, 'node_modules', '@ledgerline'));
    for (const pkg of readdirSync(join(modules, '@ledgerline')))
      symlinkSync(readlinkSync(join(modules, '@ledgerline', pkg)), join(dir, 'node_modules', '@ledgerline', pkg));
    return { dir, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
