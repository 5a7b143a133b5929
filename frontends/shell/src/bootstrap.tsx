/// <reference types="@rsbuild/core/types" />
import './styles.css';
import { prefetchDashboard } from '@ledgerline/api';
import { NoticeProvider, ThemeProvider } from '@ledgerline/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// From react-router/dom: the one RouterProvider that can flush a navigation synchronously (`flushSync`), so a filter
// checkbox or select written to the URL shows its new state at once instead of after a transition.
import { RouterProvider } from 'react-router/dom';
import { loadRuntimeConfig } from './config';
import { registerRemoteEntries } from './federation';
import { dashboardWidgetQueries } from './pages/app/dashboard-data';
import { createAppRouter, opensDashboard } from './routing/router';
import { RuntimeConfigProvider } from './runtime-config';
import { SessionProvider } from './session/context';
import { createSessionController } from './session/controller';
import { createSessionStore } from './session/store';

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (root === null) throw new Error('index.html has no #root');
  const config = await loadRuntimeConfig();
  registerRemoteEntries(config.remotes);

  const queryClient = new QueryClient({
    // A 4xx will not fix itself on a retry, and a retried 401 would only repeat the logout.
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  const store = createSessionStore(safeLocalStorage());
  const controller = createSessionController({ apiUrl: config.apiUrl, store, queryClient });
  // A signed-in load of the dashboard asks for its charts' widgets now, before the page's code is fetched, not once the
  // page and the reports remote have arrived (issue #13's 1.5 s); the remote's charts then read this answer.
  const { auth, user } = store.getState();
  if (opensDashboard(window.location.pathname) && auth.isAuthenticated && user.selectedWorkspaceId !== null)
    prefetchDashboard(controller.client, queryClient, dashboardWidgetQueries());
  const router = createAppRouter();

  createRoot(root).render(
    <StrictMode>
      <RuntimeConfigProvider config={config}>
        <ThemeProvider>
          <QueryClientProvider client={queryClient}>
            <NoticeProvider>
              <SessionProvider controller={controller}>
                <RouterProvider router={router} />
              </SessionProvider>
            </NoticeProvider>
          </QueryClientProvider>
        </ThemeProvider>
      </RuntimeConfigProvider>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  console.error(error);
  const root = document.getElementById('root');
  if (root) root.textContent = 'Ledgerline could not start. Reload the page to try again.';
});
