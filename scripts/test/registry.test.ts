// The registry (services/platform/src/kit/registry.ts) is the one list of services and remotes; what it
// cannot drive directly (workspaces, charts, the umbrella chart, the shell's remote names, each service's
// settings defaults) must agree with it, and this test says where they do not.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PORTS, GATEWAY, REMOTES, SERVICES, serviceEnvNames } from '@ledgerline/platform';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REMOTE_NAMES } from '../../frontends/shell/src/remote-names.js';
import { gatewayConfigSchema } from '../../services/gateway/src/config.js';
import { loadService } from '../lib/stack.js';

const root = join(import.meta.dirname, '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, unknown>;
const workspaces = readJson('package.json').workspaces as string[];
/** A folder is a workspace when listed, or its parent is listed with `/*`. */
const isWorkspace = (dir: string) => workspaces.includes(dir) || workspaces.includes(`${dir.slice(0, dir.lastIndexOf('/'))}/*`);
const umbrella = parse(readFileSync(join(root, 'charts/ledgerline/Chart.yaml'), 'utf8')) as { dependencies: { name: string }[] };
const umbrellaValues = parse(readFileSync(join(root, 'charts/ledgerline/values.yaml'), 'utf8')) as Record<string, unknown>;

describe('the registry of services and remotes', () => {
  it('gives every port once', () => {
    const ports = Object.values(DEFAULT_PORTS);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it.each(SERVICES.map((s) => [s.name, s] as const))('%s: its package, chart and settings agree with its entry', async (name, entry) => {
    expect(isWorkspace(entry.dir)).toBe(true);
    expect(readJson(`${entry.dir}/package.json`).name).toBe(entry.package);
    expect(existsSync(join(root, entry.chart, 'Chart.yaml'))).toBe(true);
    expect(umbrella.dependencies.map((d) => d.name)).toContain(name);
    expect(umbrellaValues[name]).toMatchObject({ enabled: true });
    const service = await loadService(entry);
    expect(service.name).toBe(name);
    const names = serviceEnvNames(name);
    const defaults = service.config.parse({}) as Record<string, unknown>;
    expect(defaults[names.port]).toBe(entry.port);
    expect(new URL(defaults[names.databaseUrl] as string).pathname).toBe(`/${entry.database}`);
    expect(decodeURIComponent(new URL(defaults[names.databaseUrl] as string).username)).toBe(`${entry.database}_app`);
    for (const called of entry.calls)
      expect(new URL(defaults[`${called.toUpperCase()}_URL`] as string).port).toBe(String(SERVICES.find((s) => s.name === called)!.port));
  });

  it('gives the gateway a URL of every service, on its port', () => {
    const config = gatewayConfigSchema.parse({}) as unknown as Record<string, string>;
    expect(config.GATEWAY_PORT).toBe(GATEWAY.port);
    for (const s of SERVICES) expect(new URL(config[`${s.name.toUpperCase()}_URL`] ?? '').port).toBe(String(s.port));
  });

  it('names the remotes the shell loads', () => {
    expect([...REMOTE_NAMES].sort()).toEqual(REMOTES.map((r) => r.name).sort());
    for (const r of REMOTES) {
      expect(isWorkspace(r.dir)).toBe(true);
      expect(readJson(`${r.dir}/package.json`).name).toBe(r.package);
    }
  });
});
