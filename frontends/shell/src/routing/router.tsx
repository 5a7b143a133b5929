import { lazyPage } from '@ledgerline/ui';
import { preloadRemotePage } from '../federation';
import { Navigate, createBrowserRouter } from 'react-router';
import { AuthLayout } from '../layout/AuthLayout';
import { ACCOUNTING_SYNC_ROUTE } from '../layout/navigation';
import { LoginPage } from '../pages/auth/LoginPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { RouteGuard } from './RouteGuard';

// Code split per route (issue #13): the login page and the layouts' frames come with the first load; every other
// page, and the signed-in layout, loads on demand with a skeleton. The auth pages that show no dropdown, dialog or
// tabs (`widgets: false`) do not fetch the kit's Headless UI components either, so each stays a light first load.
const AppLayout = lazyPage(() => import('../layout/AppLayout').then((m) => m.AppLayout), 'Loading Ledgerline', { full: true });
const SignupPage = lazyPage(() => import('../pages/auth/SignupPage').then((m) => m.SignupPage), 'Loading sign-up', { widgets: false });
const VerifyOtpPage = lazyPage(() => import('../pages/auth/VerifyOtpPage').then((m) => m.VerifyOtpPage), 'Loading', { widgets: false });
const ForgotPasswordPage = lazyPage(() => import('../pages/auth/ForgotPasswordPage').then((m) => m.ForgotPasswordPage), 'Loading', { widgets: false });
const ResetPasswordPage = lazyPage(() => import('../pages/auth/ResetPasswordPage').then((m) => m.ResetPasswordPage), 'Loading', { widgets: false });
const OnboardPage = lazyPage(() => import('../pages/auth/OnboardPage').then((m) => m.OnboardPage), 'Loading onboarding');
const VerifyInvitePage = lazyPage(() => import('../pages/auth/VerifyInvitePage').then((m) => m.VerifyInvitePage), 'Loading the invitation', { widgets: false });
const LoginWorkspacePage = lazyPage(() => import('../pages/auth/LoginWorkspacePage').then((m) => m.LoginWorkspacePage), 'Opening the workspace', {
  widgets: false,
});
const GoogleCallbackPage = lazyPage(() => import('../pages/auth/GoogleCallbackPage').then((m) => m.GoogleCallbackPage), 'Signing in', { widgets: false });
const SelectOrganizationPage = lazyPage(() => import('../pages/app/SelectOrganizationPage').then((m) => m.SelectOrganizationPage), 'Loading organizations');
const ComingSoonPage = lazyPage(() => import('../pages/app/ComingSoonPage').then((m) => m.ComingSoonPage), 'Loading the page');
const DashboardPage = lazyPage(() => import('../pages/app/DashboardPage').then((m) => m.DashboardPage), 'Loading the dashboard');
const TransactionsRoute = lazyPage(() => import('../pages/app/AccountingRoutes').then((m) => m.TransactionsRoute), 'Loading transactions');
const ExpensesRoute = lazyPage(() => import('../pages/app/AccountingRoutes').then((m) => m.ExpensesRoute), 'Loading expenses');
const RevenueRoute = lazyPage(() => import('../pages/app/AccountingRoutes').then((m) => m.RevenueRoute), 'Loading revenue');
const AccountingRoute = lazyPage(() => import('../pages/app/AccountingRoutes').then((m) => m.AccountingRoute), 'Loading accounting');
const ReportsRoute = lazyPage(() => import('../pages/app/ReportsRoutes').then((m) => m.ReportsRoute), 'Loading reports');
const ConnectAccountsPage = lazyPage(() => import('../pages/app/ConnectAccountsPage').then((m) => m.ConnectAccountsPage), 'Loading accounts');
const SettingsRoute = lazyPage(() => import('../pages/app/SettingsRoute').then((m) => m.SettingsRoute), 'Loading settings');

/** Routes anyone may open (spec §2 auth routes): their load fetches nothing of the signed-in app. */
const PUBLIC_PATHS = new Set([
  '/login',
  '/signup',
  '/verify-otp',
  '/forgot-password',
  '/reset-password',
  '/onboard',
  '/verify-invite',
  '/login-workspace',
  '/oauth/google',
]);

/** Paths a signed-in load lands on the dashboard from. */
export const opensDashboard = (pathname: string): boolean => pathname === '/dashboard' || pathname === '/';

/**
 * A load of a signed-in page (a reload, a link) fetches the layout and, on /dashboard, its page and the reports
 * remote's charts at once rather than one after the other behind the route guard; /login fetches none of them.
 */
export function preloadFor(pathname: string): void {
  if (PUBLIC_PATHS.has(pathname)) return;
  AppLayout.preload();
  if (opensDashboard(pathname)) {
    DashboardPage.preload();
    preloadRemotePage('reports', 'DashboardCharts');
  }
}

export function createAppRouter() {
  preloadFor(window.location.pathname);
  return createBrowserRouter([
    {
      element: <RouteGuard />,
      errorElement: <RouteErrorPage />,
      children: [
        {
          element: <AuthLayout />,
          children: [
            { path: '/login', element: <LoginPage /> },
            { path: '/signup', element: <SignupPage /> },
            { path: '/verify-otp', element: <VerifyOtpPage /> },
            { path: '/forgot-password', element: <ForgotPasswordPage /> },
            { path: '/reset-password', element: <ResetPasswordPage /> },
            { path: '/onboard', element: <OnboardPage /> },
            { path: '/verify-invite', element: <VerifyInvitePage /> },
            { path: '/login-workspace', element: <LoginWorkspacePage /> },
            { path: '/oauth/google', element: <GoogleCallbackPage /> },
          ],
        },
        {
          element: <AppLayout />,
          children: [
            { index: true, element: <Navigate to="/dashboard" replace /> },
            { path: '/dashboard', element: <DashboardPage /> },
            { path: '/expenses', element: <ExpensesRoute /> },
            { path: '/transactions/:transactionId?', element: <TransactionsRoute /> },
            { path: '/revenue', element: <RevenueRoute /> },
            { path: '/accounting', element: <AccountingRoute /> },
            { path: '/reports', element: <ReportsRoute /> },
            {
              path: ACCOUNTING_SYNC_ROUTE,
              element: (
                <ComingSoonPage
                  title="Accounting Sync"
                  description="Keep your accounting package in step with Ledgerline."
                  coming="Connecting QuickBooks, pushing un-synced transactions, bills and invoices, and pulling changes back arrive in a later release."
                />
              ),
            },
            { path: '/connect-accounts', element: <ConnectAccountsPage /> },
            { path: '/select-organization', element: <SelectOrganizationPage /> },
            { path: '/settings', element: <SettingsRoute /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
