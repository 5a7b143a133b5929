import { remoteConfig } from '@ledgerline/ui/federation';

// The one Module Federation preset (frontends/ui/federation.ts): only what differs from the other remotes.
export default remoteConfig({
  name: 'accounting',
  port: 3002,
  exposes: {
    './AccountingPage': './src/AccountingPage.tsx',
    './TransactionsPage': './src/TransactionsPage.tsx',
    './RevenuePage': './src/RevenuePage.tsx',
    './ExpensesPage': './src/ExpensesPage.tsx',
  },
});
