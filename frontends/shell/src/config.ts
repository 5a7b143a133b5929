/** Served at /config.json by the web server, so one build runs against any gateway and remote URLs. */
export interface RuntimeConfig {
  apiUrl: string;
  remotes: { settings: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (!isRecord(value) || typeof value.apiUrl !== 'string' || !isRecord(value.remotes) || typeof value.remotes.settings !== 'string') {
    throw new Error('config.json must be { "apiUrl": string, "remotes": { "settings": string } }');
  }
  return { apiUrl: value.apiUrl, remotes: { settings: value.remotes.settings } };
}

export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  return parseRuntimeConfig(await response.json());
}
