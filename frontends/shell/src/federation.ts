import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import type { RemoteName } from './config';

/** The remotes the shell loads pages from, each registered from /config.json. */
export type { RemoteName };

const entries = new Map<RemoteName, string>();

export function registerRemoteEntries(remotes: Readonly<Record<RemoteName, string>>): void {
  for (const [name, entry] of Object.entries(remotes) as Array<[RemoteName, string]>) entries.set(name, entry);
  registerRemotes([...entries].map(([name, entry]) => ({ name, entry })));
}

/**
 * Loads the component `exposed` exports from `remote/exposed`. On a retry the remote is registered again with
 * `force`, which drops the runtime's cached (failed) manifest so the next attempt really goes back to the network.
 */
export async function loadRemotePage<P extends object = object>(remote: RemoteName, exposed: string, retry: boolean): Promise<ComponentType<P>> {
  const early = preloaded.get(`${remote}/${exposed}`);
  if (!retry && early !== undefined) return early as Promise<ComponentType<P>>;
  return fetchRemotePage<P>(remote, exposed, retry);
}

/** Loads started before the page that shows them mounts, by `remote/exposed`; a failed one is forgotten. */
const preloaded = new Map<string, Promise<unknown>>();

/**
 * Starts loading a remote's page now (a reload of /dashboard starts the charts with the shell's own layout, not after
 * it); the page's `loadRemotePage` then takes this load. A failed load is forgotten: the next one goes to the network.
 */
export function preloadRemotePage(remote: RemoteName, exposed: string): void {
  const key = `${remote}/${exposed}`;
  if (preloaded.has(key)) return;
  const load = fetchRemotePage(remote, exposed, false);
  preloaded.set(key, load);
  load.catch(() => preloaded.delete(key));
}

async function fetchRemotePage<P extends object>(remote: RemoteName, exposed: string, retry: boolean): Promise<ComponentType<P>> {
  const entry = entries.get(remote);
  if (entry === undefined) throw new Error(`The ${remote} remote is not registered`);
  if (retry) registerRemotes([{ name: remote, entry }], { force: true });
  const module = await loadRemote<Record<string, ComponentType<P> | undefined>>(`${remote}/${exposed}`);
  const page = module?.[exposed];
  if (page === undefined) throw new Error(`${remote}/${exposed} exported no component`);
  return page;
}

export const loadSettingsPage = (retry: boolean) => loadRemotePage('settings', 'SettingsPage', retry);
