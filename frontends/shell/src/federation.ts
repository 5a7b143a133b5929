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
  const entry = entries.get(remote);
  if (entry === undefined) throw new Error(`The ${remote} remote is not registered`);
  if (retry) registerRemotes([{ name: remote, entry }], { force: true });
  const module = await loadRemote<Record<string, ComponentType<P> | undefined>>(`${remote}/${exposed}`);
  const page = module?.[exposed];
  if (page === undefined) throw new Error(`${remote}/${exposed} exported no component`);
  return page;
}

export const loadSettingsPage = (retry: boolean) => loadRemotePage('settings', 'SettingsPage', retry);
