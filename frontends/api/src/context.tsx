import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ApiClient } from './client';
import type { User } from './types';

export interface ApiContextValue {
  client: ApiClient;
  /** The signed-in user, or null before sign-in. */
  user: User | null;
  /** Lets a remote hand a changed user back to the shell's session state. */
  onUserChange: (user: User) => void;
}

// This module is a Module Federation singleton, so the shell and every remote see the same context object.
const ApiContext = createContext<ApiContextValue | null>(null);

export interface ApiProviderProps extends ApiContextValue {
  children: ReactNode;
}

export function ApiProvider({ client, user, onUserChange, children }: ApiProviderProps) {
  const value = useMemo(() => ({ client, user, onUserChange }), [client, user, onUserChange]);
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

export function useApiContext(): ApiContextValue {
  const value = useContext(ApiContext);
  if (value === null) throw new Error('useApiContext must be used inside <ApiProvider>');
  return value;
}

export function useApiClient(): ApiClient {
  return useApiContext().client;
}

export function useCurrentUser(): User | null {
  return useApiContext().user;
}
