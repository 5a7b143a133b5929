import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';

export interface WorkspacePackage {
  name: string;
  dir: string;
}

/** The npm workspaces, in the root package.json's order. */
export function workspacePackages(root = process.cwd()): WorkspacePackage[] {
  const out = execSync('npm query .workspace --json', { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const list = JSON.parse(out) as { name: string; location: string }[];
  return list.map((p) => ({ name: p.name, dir: join(root, p.location) }));
}

export function hasTsconfig(pkg: WorkspacePackage): boolean {
  return existsSync(join(pkg.dir, 'tsconfig.json'));
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
