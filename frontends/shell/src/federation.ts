import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

export interface SettingsRemoteModule {
  SettingsPage?: ComponentType;
}

let settingsEntry: string | undefined;

export function registerSettingsRemote(manifestUrl: string): void {
  settingsEntry = manifestUrl;
  registerRemotes([{ name: 'settings', entry: manifestUrl }]);
}

/**
 * Loads the settings page. On a retry the remote is registered again with `force`, which drops the
 * runtime's cached (failed) manifest so the next attempt really goes back to the network.
 */
export async function loadSettingsPage(retry: boolean): Promise<ComponentType> {
  if (settingsEntry === undefined) throw new Error('The settings remote is not registered');
  if (retry) registerRemotes([{ name: 'settings', entry: settingsEntry }], { force: true });
  const module = await loadRemote<SettingsRemoteModule>('settings/SettingsPage');
  const page = module?.SettingsPage;
  if (page === undefined) throw new Error('settings/SettingsPage exported no component');
  return page;
}
