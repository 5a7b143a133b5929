/** The remotes the shell loads; the registry (services/platform/src/kit/registry.ts) names the same, a test checks. */
export const REMOTE_NAMES = ['settings', 'accounting', 'reports'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];
