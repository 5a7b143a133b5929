import { CloseIcon, Menu, MenuIcon, ThemeToggle, cx } from '@ledgerline/ui';
import { useEffect, useId, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ImportNoticesProvider } from '../banking/ImportNotices';
import { TieOutNotices } from '../banking/TieOutNotices';
import { useSession, useSessionController } from '../session/context';
import { Logo } from './Logo';
import { navigationFor } from './navigation';
import { NotificationBell } from './NotificationBell';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

export function AppLayout() {
  const { logout } = useSessionController();
  const { user: userState } = useSession();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  // Below 62em the navigation is a panel under the top bar, opened by the menu button; it closes on a choice,
  // on Escape, on a tap outside and whenever the page changes.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const user = userState.user;
  if (user === null) return null;

  const nav = navigationFor(user, userState);
  const workspace = userState.workspaces.find((w) => w.id === userState.selectedWorkspaceId) ?? null;
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
            <button
              type="button"
              className="-ml-1.5 rounded-lg p-1.5 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
              aria-label={menuOpen ? 'Close menu' : 'Menu'}
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
            </button>
            <Logo compact={userState.workspaces.length > 1} className="text-slate-900 lg:hidden dark:text-white" />
            <WorkspaceSwitcher workspaces={userState.workspaces} currentId={workspace?.id ?? null} />
          </div>
          <div className="flex items-center gap-1">
            {/* The bell of the workspace the user acts in (none in demo mode or before a firm user picks a client). */}
            <NotificationBell
              workspaceId={
                userState.isDemoModeActive ? null : (userState.selectedWorkspaceId ?? (user.userType === 'firm' ? null : (user.workspace?.id ?? null)))
              }
            />
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
        {/* Outside the header: its backdrop blur would make it the box the fixed panel is placed in. */}
        {menuOpen && (
          <>
            <div className="fixed inset-x-0 top-16 bottom-0 z-30 bg-slate-950/30 lg:hidden" aria-hidden onClick={() => setMenuOpen(false)} />
            <nav
              id={menuId}
              aria-label="Main"
              className="fixed inset-x-0 top-16 z-30 flex max-h-[calc(100dvh-4rem)] flex-col gap-1 overflow-y-auto border-b border-slate-200 bg-white px-3 py-3 shadow-lg lg:hidden dark:border-slate-800 dark:bg-slate-900"
              onClick={(event) => {
                if (event.target instanceof HTMLElement && event.target.closest('a')) setMenuOpen(false);
              }}
            >
              {links}
            </nav>
          </>
        )}
        <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 lg:px-8">
          <ImportNoticesProvider>
            {/* A firm user watches the books of the client they chose, never a default one. */}
            {!userState.isDemoModeActive && Boolean(userState.selectedWorkspaceId ?? (user.userType === 'firm' ? null : user.workspace?.id)) && (
              <TieOutNotices />
            )}
            <Outlet />
          </ImportNoticesProvider>
        </main>
      </div>
    </div>
  );
}
