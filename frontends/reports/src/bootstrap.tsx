/// <reference types="@rsbuild/core/types" />
import '@ledgerline/ui/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Opened on its own, the remote only explains itself: its pages need the shell's session, router and api client.
function Standalone() {
  return (
    <main data-remote="reports" className="mx-auto max-w-xl p-10">
      <h1 className="text-xl font-semibold">Ledgerline reports remote</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        This bundle exposes <code>./ReportsPage</code> and <code>./DashboardCharts</code> through <code>mf-manifest.json</code>. Open it through the shell at{' '}
        <code>/reports</code> and <code>/dashboard</code>.
      </p>
    </main>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Standalone />
    </StrictMode>,
  );
}
