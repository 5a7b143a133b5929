// Which names `new:service` and `new:remote` accept: lower-case letters, not a JavaScript reserved word (the
// name becomes a variable), not a name the product already uses for a service, remote, helper or folder.
import { GATEWAY, HELPER_PORTS, REMOTES, SERVICES, SHELL } from '../../services/platform/src/kit/registry.js';
import { GeneratorError, NAME_PATTERN, namesOf, type Names } from './scaffold.js';

const RESERVED_WORDS = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await async of undefined arguments eval'.split(
    ' ',
  ),
);

/** Folders and names of the chassis, the shared frontends and the proto tree, and the gateway's own dependencies. */
const PRODUCT_WORDS = new Set([
  'platform',
  'sandboxes',
  'proto',
  'events',
  'common',
  'api',
  'ui',
  'mailbox',
  'plaid',
  'smtp',
  'config',
  'logger',
  'redis',
  'app',
  'deps',
  'test',
  'tests',
  'scripts',
  'charts',
  'deploy',
  'docs',
  'shared',
  'node',
]);

/** The names of a new service or remote, or a GeneratorError saying why not. `taken(names)` lists paths already there. */
export function checkNewName(raw: string, kind: 'service' | 'remote', taken: (names: Names) => string[]): Names {
  const usage = `usage: npm run new:${kind} NAME (lower-case letters a-z, 2 to 30 of them, e.g. npm run new:${kind} billing)`;
  if (!raw) throw new GeneratorError(usage);
  if (!NAME_PATTERN.test(raw)) throw new GeneratorError(`"${raw}" is not a valid name: ${usage.slice(7)}`);
  if (RESERVED_WORDS.has(raw)) throw new GeneratorError(`"${raw}" is a JavaScript reserved word (it becomes a variable name); choose another`);
  const used = [...SERVICES.map((s) => s.name), ...REMOTES.map((r) => r.name), GATEWAY.name, SHELL.name, 'shell', ...Object.keys(HELPER_PORTS)];
  if (used.includes(raw))
    throw new GeneratorError(`"${raw}" is taken: the registry (services/platform/src/kit/registry.ts) already names a service, remote or helper "${raw}"`);
  if (PRODUCT_WORDS.has(raw)) throw new GeneratorError(`"${raw}" names a part of the product already (a folder, package or setting); choose another`);
  const names = namesOf(raw);
  const there = taken(names);
  if (there.length > 0) throw new GeneratorError(`"${raw}" is taken: ${there.join(', ')} already exist${there.length === 1 ? 's' : ''}`);
  return names;
}
