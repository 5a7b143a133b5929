import { Navigate, createBrowserRouter } from 'react-router';
import { AppLayout } from '../layout/AppLayout';
import { AuthLayout } from '../layout/AuthLayout';
import { ACCOUNTING_SYNC_ROUTE } from '../layout/navigation';
import { AccountingRoute, TransactionsRoute } from '../pages/app/AccountingRoutes';
import { ReportsRoute } from '../pages/app/ReportsRoutes';
import { AreaPage } from '../pages/app/AreaPage';
import { areas } from '../pages/app/areas';
import { ComingSoonPage } from '../pages/app/ComingSoonPage';
import { ConnectAccountsPage } from '../pages/app/ConnectAccountsPage';
import { DashboardPage } from '../pages/app/DashboardPage';
import { SettingsRoute } from '../pages/app/SettingsRoute';
import { ForgotPasswordPage } from '../pages/auth/ForgotPasswordPage';
import { LoginPage } from '../pages/auth/LoginPage';
import { OnboardPage } from '../pages/auth/OnboardPage';
import { ResetPasswordPage } from '../pages/auth/ResetPasswordPage';
import { SignupPage } from '../pages/auth/SignupPage';
import { VerifyOtpPage } from '../pages/auth/VerifyOtpPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { RouteGuard } from './RouteGuard';

export function createAppRouter() {
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
            {
              path: '/verify-invite',
              element: <ComingSoonPage title="Accept an invitation" coming="Invitation links from your team open here once team invites are built." />,
            },
            {
              path: '/login-workspace',
              element: <ComingSoonPage title="Workspace sign-in" coming="Signing in to a workspace you were invited to happens here once invites are built." />,
            },
          ],
        },
        {
          element: <AppLayout />,
          children: [
            { index: true, element: <Navigate to="/dashboard" replace /> },
            { path: '/dashboard', element: <DashboardPage /> },
            { path: '/expenses', element: <AreaPage area={areas.expenses} /> },
            { path: '/transactions/:transactionId?', element: <TransactionsRoute /> },
            { path: '/revenue', element: <AreaPage area={areas.revenue} /> },
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
            {
              path: '/select-organization',
              element: <ComingSoonPage title="Organizations" coming="Accounting firms pick the organization to work in here once firm management is built." />,
            },
            { path: '/settings', element: <SettingsRoute /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
