// `npm run new:service` and `npm run new:remote` in a scratch copy of the checkout (issue #14, "Must show"): bad and
// taken names are refused and a generator that fails half-way puts every file back; then a service (`sample`) and a
// remote (`samples`; a remote cannot share a service's name: both are the package @ledgerline/<name>) are generated,
// and in the copy the registry, chart and .env.example tests pass, the new code typechecks and lints, the service's
// own test passes against real PostgreSQL and NATS, the test system starts it and its gateway route answers, and the
// remote builds. The copy is deleted afterwards, also when a step fails.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REMOTES, SERVICES } from '../../services/platform/src/kit/registry.js';
import { checkNewName } from '../lib/generator-names.js';
import { GeneratorError } from '../lib/scaffold.js';
import { makeScratch, type Scratch } from '../lib/scratch.js';

const root = join(import.meta.dirname, '..', '..');
let scratch: Scratch | undefined;

afterAll(() => scratch?.remove());

/** Runs a command in the copy; answers its exit code and output (the nested vitest must not think it is a worker). */
function sh(dir: string, cmd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && !key.startsWith('TINYPOOL') && key !== 'NODE_OPTIONS'),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: dir, env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Fails with the command's own output, which says what broke. */
async function ok(dir: string, cmd: string, args: string[]): Promise<string> {
  const { code, output } = await sh(dir, cmd, args);
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${output.slice(-6000)}`);
  return output;
}

/** Runs a step and logs how long it took (the test's time on a busy machine is mostly these). */
async function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    console.log(`generators: ${label} took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

const generator = (dir: string, kind: 'service' | 'remote', name: string) =>
  sh(dir, 'node_modules/.bin/tsx', ['--conditions=ledgerline-source', `scripts/new-${kind}.ts`, name]);

/** Files a generator edits: their text, to show a refusal or a rollback left them alone. */
const EDITED = [
  'package.json',
  'package-lock.json',
  '.env.example',
  'services/platform/src/kit/registry.ts',
  'services/platform/src/events/catalog.ts',
  'services/gateway/src/config.ts',
  'services/gateway/src/upstreams.ts',
  'services/gateway/src/app.ts',
  'charts/gateway/values.yaml',
  'charts/ledgerline/Chart.yaml',
  'charts/ledgerline/values.yaml',
  'frontends/shell/src/remote-names.ts',
  'frontends/shell/src/routing/router.tsx',
  'frontends/api/openapi.json',
];
const snapshot = (dir: string) => Object.fromEntries(EDITED.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('the generators', () => {
  it('refuse bad names, roll back a failed run, and generate a service and a remote that pass their checks', async () => {
    scratch = await step('scratch copy', async () => makeScratch(root, 'ledgerline-generators-'));
    const dir = scratch.dir;
    const before = snapshot(dir);

    // Refused before anything is written: the rules, then one refusal through the command itself.
    const refusal = (name: string, kind: 'service' | 'remote' = 'service') => {
      try {
        checkNewName(name, kind, () => []);
      } catch (err) {
        if (err instanceof GeneratorError) return err.message;
        throw err;
      }
      return 'accepted';
    };
    expect(refusal('')).toContain('usage: npm run new:service NAME');
    expect(refusal('Bad-Name')).toContain('"Bad-Name" is not a valid name');
    expect(refusal('class')).toContain('reserved word');
    expect(refusal('settings', 'remote')).toContain('"settings" is taken');
    expect(refusal('reporting', 'remote')).toContain('"reporting" is taken');
    expect(refusal('platform')).toContain('names a part of the product');
    expect(() => checkNewName('payroll', 'service', () => ['services/payroll'])).toThrow('services/payroll already exists');
    expect(checkNewName('payroll', 'service', () => [])).toEqual({ name: 'payroll', Name: 'Payroll', NAME: 'PAYROLL' });
    const cli = await step('refusal', () => generator(dir, 'service', 'ledger'));
    expect(cli.code).toBe(1);
    expect(cli.output).toContain('"ledger" is taken');
    expect(cli.output).toContain('Nothing was changed');
    expect(snapshot(dir)).toEqual(before);

    // A run that fails half-way (the gateway's anchor is gone: no `register<Service>(app, context)` line) puts back what it wrote.
    const app = join(dir, 'services/gateway/src/app.ts');
    writeFileSync(app, before['services/gateway/src/app.ts']!.replaceAll('(app, context)', '(app, routes)'));
    const failed = await step('rolled-back run', () => generator(dir, 'service', 'broken'));
    expect(failed.code).toBe(1);
    expect(failed.output).toContain('Every file it wrote was put back');
    writeFileSync(app, before['services/gateway/src/app.ts']!);
    expect(snapshot(dir)).toEqual(before);
    for (const path of [
      'services/broken',
      'services/gateway/src/broken',
      'charts/broken',
      'proto/ledgerline/broken',
      'proto/ledgerline/events/v1/broken.proto',
      'node_modules/@ledgerline/broken',
      'tests/api/broken.test.ts',
    ])
      expect(existsSync(join(dir, path)), path).toBe(false);

    // The real thing.
    const service = await step('new:service sample', () => generator(dir, 'service', 'sample'));
    expect(service.code, service.output).toBe(0);
    const remote = await step('new:remote samples', () => generator(dir, 'remote', 'samples'));
    expect(remote.code, remote.output).toBe(0);
    // The next free ports after today's registry (the checkout's own, which the scratch copy started from).
    const nextService = Math.max(...SERVICES.map((s) => s.port)) + 1;
    const nextRemote = Math.max(...REMOTES.map((r) => r.port)) + 1;
    expect(readFileSync(join(dir, 'services/platform/src/kit/registry.ts'), 'utf8')).toMatch(
      new RegExp(`name: 'sample', port: ${nextService},[^\\n]*\\n[\\s\\S]*name: 'samples', port: ${nextRemote},`),
    );

    // Two programs typecheck what was generated and what it touched (the gateway, the shell).
    writeFileSync(
      join(dir, 'tsconfig.generated-node.json'),
      JSON.stringify({
        extends: './tsconfig.base.json',
        compilerOptions: { noEmit: true, lib: ['ES2023', 'DOM'] },
        include: [
          'services/sample/src',
          'services/sample/test',
          'services/gateway/src',
          'tests/api/sample.test.ts',
          'tests/browser/samples.test.ts',
          'scripts/test/registry.test.ts',
        ],
      }),
    );
    writeFileSync(
      join(dir, 'tsconfig.generated-web.json'),
      JSON.stringify({ extends: './tsconfig.web.json', include: ['frontends/samples/src', 'frontends/samples/rsbuild.config.ts', 'frontends/shell/src'] }),
    );
    // Three lanes: the tests, the Node typecheck, and the web typecheck, lint and build (each step's time is logged).
    const [testOutput] = await Promise.all([
      step('vitest (service, system, registry, charts)', () =>
        ok(dir, 'node_modules/.bin/vitest', ['run', 'services/sample', 'tests/api/sample.test.ts', 'scripts/test/registry.test.ts', 'charts/test']),
      ),
      step('typecheck (Node)', () => ok(dir, 'node_modules/.bin/tsc', ['-p', 'tsconfig.generated-node.json'])),
      (async () => {
        await step('typecheck (web)', () => ok(dir, 'node_modules/.bin/tsc', ['-p', 'tsconfig.generated-web.json']));
        await step('format', () =>
          ok(dir, 'node_modules/.bin/prettier', [
            '--check',
            '--log-level',
            'warn',
            'services/sample',
            'frontends/samples',
            'services/gateway/src',
            'services/platform/src/kit/registry.ts',
            'frontends/shell/src',
            'tests/api/sample.test.ts',
            'tests/browser/samples.test.ts',
          ]),
        );
        await step('lint', () =>
          ok(dir, 'node_modules/.bin/eslint', [
            '--max-warnings',
            '0',
            'services/sample',
            'services/gateway/src/app.ts',
            'services/gateway/src/config.ts',
            'services/gateway/src/upstreams.ts',
            'services/gateway/src/sample',
            'services/platform/src/kit/registry.ts',
            'services/platform/src/events/catalog.ts',
            'frontends/samples',
            'frontends/shell/src/routing/router.tsx',
            'frontends/shell/src/remote-names.ts',
            'frontends/shell/src/pages/app/SamplesRoute.tsx',
            'tests/api/sample.test.ts',
            'tests/browser/samples.test.ts',
          ]),
        );
        await step('build the remote', () => ok(dir, 'npm', ['run', 'build', '--silent', '-w', '@ledgerline/samples']));
      })(),
    ]);
    // The service's test, its gateway route on the test system, the registry and the charts: all ran, none failed.
    expect(testOutput).toMatch(/services\/sample\/test\/service\.test\.ts \(2 tests\)/);
    expect(testOutput).toMatch(/tests\/api\/sample\.test\.ts \(1 test\)/);
    expect(testOutput).not.toMatch(/\bfailed\b/);
    const manifest = JSON.parse(readFileSync(join(dir, 'frontends/samples/dist/mf-manifest.json'), 'utf8')) as { name: string; exposes: { name: string }[] };
    expect(manifest.name).toBe('samples');
    expect(manifest.exposes.map((e) => e.name)).toEqual(['SamplesPage']);
  }, 420_000);
});
