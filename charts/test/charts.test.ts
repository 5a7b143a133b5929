/**
 * Static checks of the Helm charts, standing in for `helm lint` / `helm template` where Helm is not
 * installed: every Chart.yaml and values file parses, dependencies resolve to chart folders, app charts
 * call only named templates the library defines, every value a used library template reads is declared
 * in the chart's values.yaml (a missing parent key is a nil-pointer error at `helm template` time), and
 * the environment values files only set keys the charts know.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICES } from '@ledgerline/platform/registry';

const chartsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(chartsDir, '..');
const LIBRARY = 'ledgerline-lib';
const UMBRELLA = 'ledgerline';

type Values = Record<string, unknown>;

interface Dependency {
  name: string;
  version: string;
  repository: string;
  condition?: string;
}

interface ChartMeta {
  apiVersion: string;
  name: string;
  version: string;
  type?: string;
  appVersion?: string;
  dependencies?: Dependency[];
}

function isObject(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readYaml(path: string): unknown {
  return parse(readFileSync(path, 'utf8'));
}

function chartFolders(): string[] {
  return readdirSync(chartsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(chartsDir, d.name, 'Chart.yaml')))
    .map((d) => d.name)
    .sort();
}

function chartMeta(folder: string): ChartMeta {
  return readYaml(join(chartsDir, folder, 'Chart.yaml')) as ChartMeta;
}

function chartValues(folder: string): Values {
  const path = join(chartsDir, folder, 'values.yaml');
  if (!existsSync(path)) return {};
  const values = readYaml(path) ?? {};
  if (!isObject(values)) throw new Error(`${folder}/values.yaml is not a mapping`);
  return values;
}

function templateFiles(folder: string): string[] {
  const dir = join(chartsDir, folder, 'templates');
  return existsSync(dir) ? readdirSync(dir).sort().map((f) => join(dir, f)) : [];
}

/** Template text without `{{/* comments *\/}}`, which may mention template syntax. */
function templateSource(path: string): string {
  return readFileSync(path, 'utf8').replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, '');
}

interface Define {
  name: string;
  body: string;
  /** Offsets of the whole block, from `{{ define` to the end of its `{{ end }}`. */
  start: number;
  end: number;
}

/** The `define` blocks of a template source, each closed by the `end` that balances it. */
function scanDefines(source: string): Define[] {
  const found: Define[] = [];
  const actions = [...source.matchAll(/\{\{-?\s*(if|range|with|define|block|end)\b[^}]*\}\}/g)];
  for (let i = 0; i < actions.length; i += 1) {
    const open = actions[i];
    const name = open?.[0].match(/define\s+"([^"]+)"/)?.[1];
    if (!open || open[1] !== 'define' || !name) continue;
    let depth = 1;
    for (let j = i + 1; j < actions.length; j += 1) {
      const action = actions[j];
      if (!action) break;
      depth += action[1] === 'end' ? -1 : 1;
      if (depth === 0) {
        found.push({ name, body: source.slice(open.index + open[0].length, action.index), start: open.index, end: action.index + action[0].length });
        i = j;
        break;
      }
    }
  }
  return found;
}

/** Named templates in a set of files: name → body. */
function definitions(files: string[]): Map<string, string> {
  return new Map(files.flatMap((file) => scanDefines(templateSource(file)).map((d) => [d.name, d.body] as const)));
}

function includedNames(source: string): string[] {
  return [...source.matchAll(/\b(?:include|template)\s+"([^"]+)"/g)].map((m) => m[1] ?? '');
}

/** `.Values.a.b.c` paths read by a template body (as key lists). */
function valuePaths(source: string): string[][] {
  return [...source.matchAll(/\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)].map((m) => (m[1] ?? '').slice(1).split('.'));
}

function hasPath(values: Values, path: string[]): boolean {
  let node: unknown = values;
  for (const key of path) {
    if (!isObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

/** Keys whose values are free-form maps or lists (any key may be set under them). */
const FREE_FORM = new Set(['annotations', 'env', 'secretEnv', 'resources', 'affinity', 'nodeSelector', 'podAnnotations', 'labels', 'tolerations', 'secrets', 'imagePullSecrets', 'command']);

/** Keys of `override` that `defaults` does not declare, as dotted paths. */
function unknownKeys(override: Values, defaults: Values, prefix = ''): string[] {
  return Object.entries(override).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    if (!(key in defaults)) return [path];
    const known = defaults[key];
    if (FREE_FORM.has(key) || !isObject(value) || !isObject(known)) return [];
    return unknownKeys(value, known, `${path}.`);
  });
}

const folders = chartFolders();
const libraryDefs = definitions(templateFiles(LIBRARY));
const appCharts = folders.filter((f) => chartMeta(f).type !== 'library' && f !== UMBRELLA);

describe('charts', () => {
  it('has the library, the service charts and the umbrella', () => {
    expect(folders).toEqual(expect.arrayContaining([LIBRARY, 'gateway', 'identity', UMBRELLA]));
  });

  it.each(folders)('%s: Chart.yaml is a Helm 3 chart named after its folder', (folder) => {
    const meta = chartMeta(folder);
    expect(meta.apiVersion).toBe('v2');
    expect(meta.name).toBe(folder);
    expect(meta.version).toMatch(/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/);
    expect(['application', 'library']).toContain(meta.type ?? 'application');
    if (meta.type !== 'library') expect(meta.appVersion).toBeTruthy();
    expect(() => chartValues(folder)).not.toThrow();
  });

  it.each(folders)('%s: every dependency resolves to a chart folder with that name and version', (folder) => {
    for (const dep of chartMeta(folder).dependencies ?? []) {
      expect(dep.repository, `${folder} → ${dep.name}`).toMatch(/^file:\/\/\.\.\//);
      const target = resolve(chartsDir, folder, dep.repository.slice('file://'.length));
      expect(existsSync(join(target, 'Chart.yaml')), `${folder} → ${dep.repository}`).toBe(true);
      const meta = readYaml(join(target, 'Chart.yaml')) as ChartMeta;
      expect(meta.name).toBe(dep.name);
      expect(meta.version).toBe(dep.version);
    }
  });

  it('the library is a library chart of named templates only, with balanced actions', () => {
    expect(chartMeta(LIBRARY).type).toBe('library');
    const files = templateFiles(LIBRARY);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file, 'library templates are _*.tpl files').toMatch(/\/_[^/]+\.tpl$/);
      const source = templateSource(file);
      const opened = source.match(/\{\{-?\s*(if|range|with|define|block)\b/g)?.length ?? 0;
      const closed = source.match(/\{\{-?\s*end\s*-?\}\}/g)?.length ?? 0;
      expect(closed, `${file}: {{ end }} count`).toBe(opened);
      // Anything outside a define is dropped silently by Helm: a sign of a misplaced end.
      let outside = source;
      for (const d of scanDefines(source).reverse()) outside = outside.slice(0, d.start) + outside.slice(d.end);
      expect(outside.trim(), `${file}: text outside define`).toBe('');
    }
    expect([...libraryDefs.keys()]).toEqual(
      expect.arrayContaining(['ledgerline-lib.deployment', 'ledgerline-lib.service', 'ledgerline-lib.hpa', 'ledgerline-lib.pdb', 'ledgerline-lib.serviceMonitor', 'ledgerline-lib.migrationJob']),
    );
    for (const [name, body] of libraryDefs) {
      for (const included of includedNames(body)) expect(libraryDefs.has(included), `${name} includes ${included}`).toBe(true);
    }
  });

  it('the migration Job is a pre-install/pre-upgrade hook deleted before re-creation and on success', () => {
    const job = libraryDefs.get('ledgerline-lib.migrationJob') ?? '';
    expect(job).toContain('"helm.sh/hook": pre-install,pre-upgrade');
    expect(job).toContain('"helm.sh/hook-delete-policy": before-hook-creation,hook-succeeded');
    expect(job).toContain('restartPolicy: Never');
  });

  it('the Deployment probes /readyz and /healthz and runs non-root on a read-only root filesystem', () => {
    const deployment = libraryDefs.get('ledgerline-lib.deployment') ?? '';
    expect(deployment).toMatch(/readinessProbe:\s+httpGet:\s+path: \/readyz/);
    expect(deployment).toMatch(/livenessProbe:\s+httpGet:\s+path: \/healthz/);
    const security = `${libraryDefs.get('ledgerline-lib.podSecurityContext')}${libraryDefs.get('ledgerline-lib.containerSecurityContext')}`;
    expect(security).toContain('runAsNonRoot: true');
    expect(security).toContain('readOnlyRootFilesystem: true');
  });

  describe.each(appCharts)('%s', (folder) => {
    const meta = chartMeta(folder);
    const values = chartValues(folder);
    const files = templateFiles(folder);
    const ownDefs = definitions(files.filter((f) => /\/_[^/]+\.tpl$/.test(f)));
    const rendered = files.filter((f) => !/\/_[^/]+$/.test(f));
    const calls = rendered.flatMap((f) => includedNames(templateSource(f)));

    it('depends on the library', () => {
      expect(meta.dependencies?.map((d) => d.name)).toContain(LIBRARY);
    });

    it("calls only named templates that exist in the library's _*.tpl files", () => {
      expect(calls.length).toBeGreaterThan(0);
      for (const name of calls) expect(libraryDefs.has(name) || ownDefs.has(name), `${folder} calls ${name}`).toBe(true);
      expect(calls).toEqual(expect.arrayContaining(['ledgerline-lib.deployment', 'ledgerline-lib.service']));
    });

    it('declares in values.yaml every value the library templates it uses read', () => {
      const seen = new Set<string>();
      const queue = [...calls];
      const missing: string[] = [];
      while (queue.length > 0) {
        const name = queue.pop() ?? '';
        if (seen.has(name)) continue;
        seen.add(name);
        const body = libraryDefs.get(name) ?? ownDefs.get(name) ?? '';
        queue.push(...includedNames(body));
        for (const path of valuePaths(body)) {
          // `global` is filled in by the umbrella chart and read through `default dict`.
          if (path[0] === 'global') continue;
          if (!hasPath(values, path)) missing.push(`${name}: .Values.${path.join('.')}`);
        }
      }
      expect(missing).toEqual([]);
    });

    it('names its image and port variable after the service', () => {
      const image = values.image as Values;
      expect(image.repository).toBe(`ledgerline/${folder}`);
      expect(values.portEnv).toBe(`${folder.toUpperCase().replaceAll('-', '_')}_PORT`);
      expect(typeof values.port).toBe('number');
    });
  });

  it('identity runs the migration Job and the gateway does not', () => {
    const callsOf = (folder: string) => templateFiles(folder).flatMap((f) => includedNames(templateSource(f)));
    expect(callsOf('identity')).toContain('ledgerline-lib.migrationJob');
    expect((chartValues('identity').migration as Values).enabled).toBe(true);
    expect(callsOf('gateway')).not.toContain('ledgerline-lib.migrationJob');
  });

  it('the umbrella depends on every service chart, each behind an <name>.enabled condition', () => {
    const meta = chartMeta(UMBRELLA);
    const values = chartValues(UMBRELLA);
    expect(meta.dependencies?.map((d) => d.name).sort()).toEqual([...appCharts].sort());
    for (const dep of meta.dependencies ?? []) {
      expect(dep.condition).toBe(`${dep.name}.enabled`);
      expect((values[dep.name] as Values | undefined)?.enabled, `${dep.name}.enabled`).toBe(true);
    }
    expect(Object.keys(values).sort()).toEqual(['global', ...appCharts].sort());
  });

  const envFiles = readdirSync(join(repoDir, 'deploy', 'values')).filter((f) => f.endsWith('.yaml'));

  it('has dev and prod values', () => {
    expect(envFiles).toEqual(expect.arrayContaining(['dev.yaml', 'prod.yaml']));
  });

  it.each(envFiles)('deploy/values/%s sets only keys the charts declare', (file) => {
    const env = readYaml(join(repoDir, 'deploy', 'values', file));
    expect(isObject(env)).toBe(true);
    const umbrella = chartValues(UMBRELLA);
    const problems: string[] = [];
    for (const [key, value] of Object.entries(env as Values)) {
      if (key === 'global') {
        problems.push(...unknownKeys(isObject(value) ? value : {}, umbrella.global as Values, 'global.'));
      } else if (appCharts.includes(key)) {
        const defaults = { ...chartValues(key), enabled: true };
        problems.push(...unknownKeys(isObject(value) ? value : {}, defaults, `${key}.`));
      } else {
        problems.push(key);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('deploy/infra', () => {
  const dir = join(repoDir, 'deploy', 'infra');
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

  it.each(files)('%s parses', (file) => {
    const docs = parseAllDocuments(readFileSync(join(dir, file), 'utf8'));
    const list = Array.isArray(docs) ? docs : [docs];
    expect(list.flatMap((d) => d.errors.map((e) => e.message))).toEqual([]);
    expect(list.filter((d) => d.contents !== null).length).toBeGreaterThan(0);
  });

  it('the CloudNativePG Cluster and a Database per service owner', () => {
    const docs = parseAllDocuments(readFileSync(join(dir, 'postgres.yaml'), 'utf8'));
    const list = (Array.isArray(docs) ? docs : [docs]).map((d) => d.toJS() as Values);
    const cluster = list.find((d) => d.kind === 'Cluster');
    expect(cluster?.apiVersion).toBe('postgresql.cnpg.io/v1');
    const databases = list.filter((d) => d.kind === 'Database').map((d) => d.spec as Values);
    const roles = ((cluster?.spec as Values).managed as { roles: Values[] }).roles;
    // Every service of the registry: its database, owned by its owner role, whose password comes from its Secret.
    for (const s of SERVICES) {
      const owner = `${s.database}_owner`;
      expect(databases, s.name).toContainEqual(expect.objectContaining({ name: s.database, owner, cluster: { name: 'ledgerline-pg' } }));
      expect(roles, s.name).toContainEqual(expect.objectContaining({ name: owner, login: true, createrole: true, passwordSecret: { name: `ledgerline-pg-${s.name}-owner` } }));
    }
    expect(databases).toHaveLength(SERVICES.length);
  });
});
