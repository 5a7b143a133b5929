import { Menu, ThemeToggle, cx } from '@ledgerline/ui';
import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { ImportNoticesProvider } from '../banking/ImportNotices';
import { useSession, useSessionController } from '../session/context';
import { Logo } from './Logo';
import { navigationFor } from './navigation';

export function AppLayout() {
  const { logout } = useSessionController();
  const { user: userState } = useSession();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const user = userState.user;
  if (user === null) return null;

  const nav = navigationFor(user, userState);
  const workspace = userState.workspaces.find((w) => w.id === userState.selectedWorkspaceId) ?? user.workspace;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();

  const signOut = async () => {
    setSigningOut(true);
    await logout();
    void navigate('/login', { replace: true });
  };

  const links = nav.map((item) => (
    <NavLink
      key={item.to}
      to={item.to}
      className={({ isActive }) =>
        cx(
          'rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
          isActive
            ? 'bg-brand-50 text-brand-800 dark:bg-brand-950 dark:text-brand-200'
            : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100',
        )
      }
    >
      {item.label}
    </NavLink>
  ));

  return (
    <div className="min-h-screen lg:grid lg:grid-cols-[15rem_minmax(0,1fr)]">
      <aside className="hidden border-r border-slate-200 bg-white lg:flex lg:flex-col dark:border-slate-800 dark:bg-slate-900">
        <div className="flex h-16 items-center px-5">
          <Logo className="text-slate-900 dark:text-white" />
        </div>
        <nav aria-label="Main" className="flex flex-col gap-1 px-3 py-2">
          {links}
        </nav>
      </aside>
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center justify-between gap-4 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-900/90">
          <div className="flex min-w-0 items-center gap-3">
            <Logo className="text-slate-900 lg:hidden dark:text-white" />
            {workspace && (
              <span className="hidden truncate rounded-md bg-slate-100 px-2 py-1 text-xs font-medium text-slate-700 sm:inline dark:bg-slate-800 dark:text-slate-300">
                {workspace.name}
              </span>
            )}
          </div>
          <div className="flex items-center gap-1">
            <ThemeToggle />
            <Menu
              triggerLabel="User menu"
              trigger={
                <>
                  <span className="flex size-8 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white dark:bg-brand-500 dark:text-slate-950">
                    {initials}
                  </span>
                  <span className="hidden max-w-40 truncate sm:inline">{fullName}</span>
                </>
              }
              header={
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900 dark:text-slate-100">{fullName}</p>
                  <p className="truncate text-xs text-slate-500 dark:text-slate-400">{user.email}</p>
                </div>
              }
              items={[
                { label: 'Settings', onSelect: () => void navigate('/settings') },
                { label: signingOut ? 'Logging out…' : 'Log out', onSelect: () => void signOut(), danger: true },
              ]}
            />
          </div>
        </header>
        <nav aria-label="Main" className="flex gap-1 overflow-x-auto border-b border-slate-200 bg-white px-3 py-2 lg:hidden dark:border-slate-800 dark:bg-slate-900">
          {links}
        </nav>
        <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 lg:px-8">
          <ImportNoticesProvider>
            <Outlet />
          </ImportNoticesProvider>
        </main>
      </div>
    </div>
  );
}
