/**
 * The deployment matches the code it ships: every environment variable the charts, the environment
 * values and .env.example name is one a service reads (a misspelt name is otherwise ignored silently and
 * the code's default applies), .env.example lists every setting, and the image runs the same commands
 * the service packages declare, from the files the charts expect.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const chartsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(chartsDir, '..');
const servicesDir = join(repoDir, 'services');

type Values = Record<string, unknown>;

function isObject(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readYaml(path: string): Values {
  const value: unknown = parse(readFileSync(path, 'utf8'));
  if (!isObject(value)) throw new Error(`${path} is not a mapping`);
  return value;
}

function objectAt(values: Values, key: string): Values {
  const value = values[key];
  return isObject(value) ? value : {};
}

/** `.ts` files under a folder, recursively. */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts'))
    .map((d) => join(d.parentPath, d.name));
}

/** The keys of a zod config schema (`  NAME: z...` lines of a config.ts), with the chassis' setting groups it spreads (`...MAIL_SETTINGS`). */
function schemaKeys(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const own = [...text.matchAll(/^\s+([A-Z][A-Z0-9_]*):\s/gm)].map((m) => m[1] ?? '');
  const spread = [...text.matchAll(/^\s+\.\.\.([A-Z][A-Z0-9_]*),/gm)].flatMap((m) => chassisGroup(m[1] ?? ''));
  return [...own, ...spread];
}

/** The keys of `export const NAME = { ... }` in the chassis' sources (a group of settings several services take). */
function chassisGroup(name: string): string[] {
  for (const file of sources(join(servicesDir, 'platform', 'src'))) {
    const block = new RegExp(`export const ${name} = \\{\\n([\\s\\S]*?)\\n\\};`).exec(readFileSync(file, 'utf8'));
    if (block) return [...(block[1] ?? '').matchAll(/^\s+([A-Z][A-Z0-9_]*):\s/gm)].map((m) => m[1] ?? '');
  }
  throw new Error(`a config spreads ${name}, which no chassis source exports`);
}

/** Variables read straight from process.env, or named as a string literal (`port('MAILBOX_HTTP_PORT', ...)`). */
function namesRead(files: string[]): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [
      ...[...text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] ?? ''),
      ...[...text.matchAll(/['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]/g)].map((m) => m[1] ?? ''),
    ];
  });
}

/** Every process: the platform's base schema and what its telemetry reads before the service starts. */
const baseVars = new Set([...schemaKeys(join(servicesDir, 'platform', 'src', 'config.ts')), ...namesRead(sources(join(servicesDir, 'platform', 'src', 'telemetry')))]);

/** What one service process reads: the base plus its own config schema. */
function serviceVars(service: string): Set<string> {
  return new Set([...baseVars, ...schemaKeys(join(servicesDir, service, 'src', 'config.ts'))]);
}

const appCharts = readdirSync(chartsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(chartsDir, d.name, 'Chart.yaml')))
  .map((d) => d.name)
  .filter((name) => {
    const meta = readYaml(join(chartsDir, name, 'Chart.yaml'));
    return meta.type !== 'library' && !(meta.dependencies as Values[] | undefined)?.some((dep) => dep.name !== 'ledgerline-lib');
  })
  // The charts of services (charts/web serves the frontends: checked on its own below).
  .filter((name) => existsSync(join(servicesDir, name)))
  .sort();

const envFiles = readdirSync(join(repoDir, 'deploy', 'values'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ file: `deploy/values/${f}`, values: readYaml(join(repoDir, 'deploy', 'values', f)) }));
const umbrella = readYaml(join(chartsDir, 'ledgerline', 'values.yaml'));

/** `file: service → variable` for every name a values file sets but the service does not read. */
function unknownVars(file: string, service: string, values: Values): string[] {
  const known = serviceVars(service);
  const names = [...Object.keys(objectAt(values, 'env')), ...Object.keys(objectAt(values, 'secretEnv'))];
  if (typeof values.portEnv === 'string') names.push(values.portEnv);
  return names.filter((name) => !known.has(name)).map((name) => `${file}: ${service} → ${name}`);
}

describe('environment variables', () => {
  it('found the config schemas the checks read', () => {
    expect([...baseVars]).toEqual(expect.arrayContaining(['NODE_ENV', 'LOG_LEVEL', 'NATS_URL', 'HOST', 'OTEL_EXPORTER_OTLP_ENDPOINT']));
    expect(appCharts).toEqual(expect.arrayContaining(['gateway', 'identity']));
    for (const chart of appCharts) expect(existsSync(join(servicesDir, chart, 'src', 'config.ts')), `services/${chart}/src/config.ts`).toBe(true);
  });

  it.each(appCharts)('charts/%s sets only variables the service reads, and its port variable', (chart) => {
    const values = readYaml(join(chartsDir, chart, 'values.yaml'));
    expect(unknownVars(`charts/${chart}/values.yaml`, chart, values)).toEqual([]);
    expect(serviceVars(chart).has(String(values.portEnv)), `${chart} reads ${String(values.portEnv)}`).toBe(true);
    // The library sets these two on every container, besides the port variable.
    for (const fixed of ['HOST', 'OTEL_SERVICE_NAME']) expect(baseVars.has(fixed), fixed).toBe(true);
  });

  it('global.env (umbrella and environments) sets only variables every process reads', () => {
    const files = [{ file: 'charts/ledgerline/values.yaml', values: umbrella }, ...envFiles];
    const unknown = files.flatMap(({ file, values }) =>
      Object.keys(objectAt(objectAt(values, 'global'), 'env'))
        .filter((name) => !baseVars.has(name))
        .map((name) => `${file}: global.env.${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it.each(envFiles.map((e) => e.file))('%s sets only variables the services read', (file) => {
    const values = envFiles.find((e) => e.file === file)?.values ?? {};
    const unknown = appCharts.flatMap((chart) => unknownVars(file, chart, objectAt(values, chart)));
    expect(unknown).toEqual([]);
  });

  it("the gateway's IDENTITY_URL reaches the identity Service's port", () => {
    const url = String(objectAt(readYaml(join(chartsDir, 'gateway', 'values.yaml')), 'env').IDENTITY_URL);
    const port = objectAt(readYaml(join(chartsDir, 'identity', 'values.yaml')), 'service').port;
    expect(url).toMatch(/^http:\/\/\{\{ \.Release\.Name \}\}-identity(?::\d+)?$/);
    expect(Number(url.match(/:(\d+)$/)?.[1] ?? 80)).toBe(port);
  });
});

describe('charts/web', () => {
  it('sets only the variables deploy/web/main.ts reads, its port variable among them', () => {
    const values = readYaml(join(chartsDir, 'web', 'values.yaml'));
    const main = readFileSync(join(repoDir, 'deploy', 'web', 'main.ts'), 'utf8');
    const read = new Set([...main.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] ?? ''));
    const names = [...Object.keys(objectAt(values, 'env')), ...Object.keys(objectAt(values, 'secretEnv')), String(values.portEnv), 'HOST'];
    expect(names.filter((name) => !read.has(name))).toEqual([]);
    expect(read).toContain('WEB_CONFIG');
  });
});

describe('.env.example', () => {
  const text = readFileSync(join(repoDir, '.env.example'), 'utf8');
  const listed = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '');
  /** Set lines, and `# NAME=value` lines for settings that must stay unset by default. */
  const documented = [...listed, ...[...text.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '')];
  const services = readdirSync(servicesDir).filter((s) => existsSync(join(servicesDir, s, 'src', 'config.ts')));

  it('lists each variable once', () => {
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
  });

  it("lists every setting of every service's config schema", () => {
    const required = new Set([...baseVars, ...services.flatMap((s) => schemaKeys(join(servicesDir, s, 'src', 'config.ts')))]);
    // Read by the OpenTelemetry SDK, defaulted by the instrumentation; not settings of ours.
    for (const sdkOnly of ['OTEL_LOGS_EXPORTER', 'OTEL_METRICS_EXPORTER', 'OTEL_TRACES_EXPORTER', 'SERVICE_NAME']) required.delete(sdkOnly);
    expect([...required].filter((name) => !documented.includes(name)).sort()).toEqual([]);
  });

  it('lists only variables some process reads', () => {
    const everySource = [
      ...readdirSync(servicesDir).flatMap((s) => sources(join(servicesDir, s, 'src'))),
      ...(existsSync(join(servicesDir, 'sandboxes')) ? readdirSync(join(servicesDir, 'sandboxes')).flatMap((s) => sources(join(servicesDir, 'sandboxes', s, 'src'))) : []),
    ];
    const known = new Set([...services.flatMap((s) => [...serviceVars(s)]), ...namesRead(everySource)]);
    expect(documented.filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(join(repoDir, 'deploy', 'Dockerfile'), 'utf8');
  const stages = new Map(
    dockerfile
      .split(/^(?=FROM )/m)
      .map((stage) => [stage.match(/^FROM \S+ AS (\S+)/)?.[1] ?? '', stage] as const)
      .filter(([name]) => name !== ''),
  );

  /** The exec-form CMD of a stage. */
  function cmd(stage: string): string[] {
    const line = stages.get(stage)?.match(/^CMD (\[.*\])\s*$/m)?.[1];
    expect(line, `CMD of stage ${stage}`).toBeDefined();
    return JSON.parse(line ?? '[]') as string[];
  }

  function packageJson(dir: string): { name?: string; scripts?: Record<string, string> } {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; scripts?: Record<string, string> };
  }

  it('takes SERVICE, builds proto, platform and the service, and runs as a non-root user', () => {
    expect(dockerfile).toMatch(/^ARG SERVICE$/m);
    for (const workspace of ['@ledgerline/proto', '@ledgerline/platform', '@ledgerline/${SERVICE}']) {
      expect(stages.get('build'), workspace).toContain(`npm run build -w ${workspace}`);
    }
    expect(stages.get('prod-deps')).toContain('--omit=dev');
    expect(stages.get('runtime-base')).toMatch(/^USER 1000:1000$/m);
    expect(stages.get('runtime-base')).toMatch(/^WORKDIR \/app\/services\/\$\{SERVICE\}$/m);
    expect([...stages.keys()].at(-1), 'the default target is the last stage').toBe('runtime');
  });

  it.each(['proto', 'services/platform', ...appCharts.map((c) => `services/${c}`)])('%s has a build script and tsconfig.build.json', (dir) => {
    expect(packageJson(join(repoDir, dir)).scripts?.build).toBe('tsc -p tsconfig.build.json');
    expect(existsSync(join(repoDir, dir, 'tsconfig.build.json'))).toBe(true);
  });

  it.each(appCharts)('runs %s with its package start script, on the port the chart gives it', (chart) => {
    const pkg = packageJson(join(servicesDir, chart));
    expect(pkg.name).toBe(`@ledgerline/${chart}`);
    expect(cmd('runtime').join(' ')).toBe(pkg.scripts?.start);
    expect(existsSync(join(servicesDir, chart, 'src', 'main.ts'))).toBe(true);
    const exposed = Number(stages.get('runtime')?.match(/^EXPOSE (\d+)$/m)?.[1]);
    expect(readYaml(join(chartsDir, chart, 'values.yaml')).port).toBe(exposed);
  });

  it.each(appCharts)('%s: the migration Job runs the file the package migrates with', (chart) => {
    const values = readYaml(join(chartsDir, chart, 'values.yaml'));
    const migrates = objectAt(values, 'migration').enabled === true;
    const script = packageJson(join(servicesDir, chart)).scripts?.migrate;
    expect(existsSync(join(servicesDir, chart, 'src', 'migrate.ts')), `services/${chart}/src/migrate.ts`).toBe(migrates);
    if (migrates) {
      // The library's default Job command, in the image's layout (WORKDIR /app/services/<SERVICE>).
      expect(script).toBe('node dist/migrate.js');
      expect(cmd('migrate')).toEqual(['node', 'dist/migrate.js']);
      const job = readFileSync(join(chartsDir, 'ledgerline-lib', 'templates', '_migration-job.tpl'), 'utf8');
      expect(job).toContain('(list "node" (printf "/app/services/%s/dist/migrate.js" .Chart.Name))');
    }
  });
});
