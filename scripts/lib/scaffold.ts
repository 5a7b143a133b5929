// What the generators (`npm run new:service`, `npm run new:remote`) share: a change set that writes new files
// from templates and inserts lines at well-anchored places (a TypeScript AST position or one exact text
// anchor), refuses when an anchor is missing or ambiguous, and puts every file back when a step fails.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { run } from './run.js';

/** Names of a generated piece: `sample` → Sample, SAMPLE. Lower-case letters only (settings and packages are named after it). */
export interface Names {
  name: string;
  Name: string;
  NAME: string;
}

export const NAME_PATTERN = /^[a-z]{2,30}$/;

export function namesOf(name: string): Names {
  return { name, Name: `${name[0]!.toUpperCase()}${name.slice(1)}`, NAME: name.toUpperCase() };
}

/** Refused with a clear message; nothing was written. */
export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';
}

/** Replaces `__name__`, `__Name__`, `__NAME__` and any other `__key__` of `vars` in a template's text or path. */
export function fill(text: string, vars: Record<string, string | number>): string {
  return text.replace(/__([A-Za-z]+)__/g, (whole, key: string) => (key in vars ? String(vars[key]) : whole));
}

/**
 * The files one generator run writes. Every write goes through it: created files and folders are removed and
 * changed files get their old text back on `rollback()`.
 */
export class ChangeSet {
  private readonly originals = new Map<string, string>();
  private readonly created: string[] = [];

  constructor(readonly root: string) {}

  path(rel: string): string {
    return join(this.root, rel);
  }

  read(rel: string): string {
    return readFileSync(this.path(rel), 'utf8');
  }

  /** Writes a new file; refuses to overwrite one. */
  create(rel: string, text: string): void {
    const path = this.path(rel);
    if (existsSync(path)) throw new GeneratorError(`${rel} already exists`);
    this.makeDirs(dirname(path));
    writeFileSync(path, text);
    this.created.push(path);
  }

  /** Replaces the text of an existing file (its first text is kept for a rollback). */
  write(rel: string, text: string): void {
    const path = this.path(rel);
    if (!this.originals.has(path)) this.originals.set(path, readFileSync(path, 'utf8'));
    writeFileSync(path, text);
  }

  /** A symbolic link (npm's workspace link under node_modules), removed on rollback. */
  link(rel: string, target: string): void {
    const path = this.path(rel);
    if (existsSync(path) || isLink(path)) throw new GeneratorError(`${rel} already exists`);
    this.makeDirs(dirname(path));
    symlinkSync(target, path);
    this.created.push(path);
  }

  /** Copies a template folder into `destRel`, filling names into paths and text; `.tmpl` is dropped from names. */
  render(templateDir: string, destRel: string, vars: Record<string, string | number>): string[] {
    const written: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const source = join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(source);
          continue;
        }
        const rel = join(destRel, fill(relative(templateDir, source), vars).replace(/\.tmpl$/, ''));
        this.create(rel, fill(readFileSync(source, 'utf8'), vars));
        written.push(rel);
      }
    };
    walk(templateDir);
    return written;
  }

  /** Inserts `text` at `offset` of a file. */
  insertAt(rel: string, offset: number, text: string): void {
    const before = this.read(rel);
    this.write(rel, before.slice(0, offset) + text + before.slice(offset));
  }

  /** Inserts several texts at offsets of one parse of the file (applied from the last offset back). */
  insertAll(rel: string, inserts: (source: ts.SourceFile, text: string) => Array<{ offset: number; text: string }>): void {
    const before = this.read(rel);
    const list = inserts(parseSource(rel, before), before).sort((a, b) => b.offset - a.offset);
    let after = before;
    for (const { offset, text } of list) after = after.slice(0, offset) + text + after.slice(offset);
    this.write(rel, after);
  }

  /** Counts a file or folder another tool wrote (e.g. `buf generate`) as created by this run. */
  adopt(rel: string): void {
    const path = this.path(rel);
    if (existsSync(path) && !this.created.includes(path)) this.created.push(path);
  }

  /** Inserts `text` before the one place `anchor` occurs; refuses when it occurs zero or several times. */
  insertBefore(rel: string, anchor: string, text: string): void {
    this.insertAt(rel, uniqueIndex(this.read(rel), anchor, rel), text);
  }

  insertAfter(rel: string, anchor: string, text: string): void {
    this.insertAt(rel, uniqueIndex(this.read(rel), anchor, rel) + anchor.length, text);
  }

  /** Edits a JSON file as data, refusing one whose text is not the 2-space form it will be written back in. */
  editJson(rel: string, edit: (json: Record<string, unknown>) => Record<string, unknown>): void {
    const text = this.read(rel);
    const json = JSON.parse(text) as Record<string, unknown>;
    if (`${JSON.stringify(json, null, 2)}\n` !== text)
      throw new GeneratorError(`${rel} is not formatted as JSON.stringify(_, null, 2) would write it; edit it by hand`);
    this.write(rel, `${JSON.stringify(edit(json), null, 2)}\n`);
  }

  /** Files written (for the summary). */
  summary(): { created: string[]; changed: string[] } {
    return { created: this.created.map((p) => relative(this.root, p)), changed: [...this.originals.keys()].map((p) => relative(this.root, p)) };
  }

  /**
   * Formats what this run created or changed with the repository's Prettier settings (`npm run format`), so the new
   * code passes `npm run lint`; files .prettierignore names (generated code, Markdown, YAML, JSON) are left alone.
   */
  async format(): Promise<void> {
    const paths = [...this.created.filter((p) => !isLink(p)), ...this.originals.keys()];
    if (paths.length === 0) return;
    await run(join(this.root, 'node_modules', '.bin', 'prettier'), ['--write', '--ignore-unknown', '--log-level', 'warn', ...paths], { cwd: this.root });
  }

  /** Puts every file back as it was before this run. */
  rollback(): void {
    for (const path of [...this.created].reverse()) {
      if (isLink(path)) unlinkSync(path);
      else rmSync(path, { recursive: true, force: true });
    }
    for (const [path, text] of this.originals) writeFileSync(path, text);
  }

  private makeDirs(dir: string): void {
    const missing: string[] = [];
    for (let d = dir; !existsSync(d); d = dirname(d)) missing.unshift(d);
    for (const d of missing) {
      mkdirSync(d);
      this.created.push(d);
    }
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function uniqueIndex(text: string, anchor: string, rel: string): number {
  const first = text.indexOf(anchor);
  if (first < 0) throw new GeneratorError(`${rel}: the generator's anchor \`${anchor.trim()}\` is not there any more; update scripts/new-*.ts`);
  if (text.indexOf(anchor, first + 1) >= 0) throw new GeneratorError(`${rel}: the generator's anchor \`${anchor.trim()}\` occurs more than once`);
  return first;
}

/** A TypeScript source parsed for finding insertion points. */
export function parseSource(rel: string, text: string): ts.SourceFile {
  return ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, rel.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** The offset right after the last top-level import declaration (where a new import line goes). */
export function afterLastImport(source: ts.SourceFile): number {
  const imports = source.statements.filter(ts.isImportDeclaration);
  const last = imports.at(-1);
  if (!last) throw new GeneratorError(`${source.fileName} has no import to add one after`);
  return last.getEnd();
}

/** A top-level `export const NAME = ...` initializer (unwrapping `as const` / `satisfies`). */
export function constInitializer(source: ts.SourceFile, name: string): ts.Expression {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (ts.isIdentifier(decl.name) && decl.name.text === name && decl.initializer) {
        let init: ts.Expression = decl.initializer;
        while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
        return init;
      }
    }
  }
  throw new GeneratorError(`${source.fileName} declares no \`${name}\``);
}

/**
 * The offset right after the last element of an array literal or the last property of an object literal
 * (before its trailing comma, if any): inserting `,\n  <item>` there keeps the list's own punctuation.
 */
export function afterLastItem(source: ts.SourceFile, list: ts.Expression): number {
  const items: readonly ts.Node[] = ts.isArrayLiteralExpression(list) ? list.elements : ts.isObjectLiteralExpression(list) ? list.properties : [];
  const last = items.at(-1);
  if (!last) throw new GeneratorError(`${source.fileName}: expected a non-empty list at offset ${list.getStart()}`);
  return last.getEnd();
}

/** The property `name` of an object literal. */
export function propertyNamed(object: ts.Expression, name: string): ts.ObjectLiteralElementLike | undefined {
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  return object.properties.find((p) => p.name !== undefined && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name);
}

/** The top-level function declaration `name`. */
export function functionNamed(source: ts.SourceFile, name: string): ts.FunctionDeclaration & { body: ts.Block } {
  const fn = source.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name);
  if (!fn?.body) throw new GeneratorError(`${source.fileName} declares no function \`${name}\``);
  return fn as ts.FunctionDeclaration & { body: ts.Block };
}

/** Start of the line holding `offset` (to insert whole lines before a statement). */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * Records a new workspace package in package-lock.json as `npm install` would (the package entry and the
 * link under node_modules), so `npm ci` stays in step without a network round trip, and links it.
 */
export function addWorkspaceToLock(
  changes: ChangeSet,
  dir: string,
  pkg: { name: string; version: string; dependencies: Record<string, string> },
  rootWorkspace?: string,
): void {
  changes.editJson('package-lock.json', (lock) => {
    const packages = lock.packages as Record<string, Record<string, unknown>>;
    const linkKey = `node_modules/${pkg.name}`;
    if (packages[dir] || packages[linkKey]) throw new GeneratorError(`package-lock.json already has ${dir}`);
    const root = packages[''] as { workspaces?: string[] };
    if (rootWorkspace && root.workspaces) root.workspaces = insertSorted(root.workspaces, rootWorkspace, (w) => w.startsWith('services/sandboxes'));
    const entries = Object.entries(packages);
    const added: Array<[string, Record<string, unknown>]> = [
      [dir, { name: pkg.name, version: pkg.version, dependencies: pkg.dependencies }],
      [linkKey, { resolved: dir, link: true }],
    ];
    for (const entry of added) {
      const at = entries.findIndex(([key]) => key !== '' && key.localeCompare(entry[0]) > 0);
      entries.splice(at < 0 ? entries.length : at, 0, entry);
    }
    return { ...lock, packages: Object.fromEntries(entries) };
  });
  changes.link(`node_modules/${pkg.name}`, relative(dirname(changes.path(`node_modules/${pkg.name}`)), changes.path(dir)));
}

/** `list` with `item` put before the first element `before` matches (else at the end). */
export function insertSorted(list: string[], item: string, before: (x: string) => boolean): string[] {
  if (list.includes(item)) return list;
  const at = list.findIndex(before);
  return at < 0 ? [...list, item] : [...list.slice(0, at), item, ...list.slice(at)];
}
