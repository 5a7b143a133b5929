// `npm run build:services`: the generated protocol code and the platform, then every service of the registry and
// the gateway, compiled to their `dist/` as the images build them (deploy/Dockerfile). The dist test layer runs these.
import { GATEWAY, SERVICES } from '@ledgerline/platform/registry';
import { run, timed } from './lib/run.js';

const workspaces = (packages: string[]) => packages.flatMap((p) => ['-w', p]);
await timed('build proto and platform', () => run('npm', ['run', 'build', ...workspaces(['@ledgerline/proto', '@ledgerline/platform'])]));
await timed('build the services and the gateway', () => run('npm', ['run', 'build', ...workspaces([...SERVICES.map((s) => s.package), GATEWAY.package])]));
