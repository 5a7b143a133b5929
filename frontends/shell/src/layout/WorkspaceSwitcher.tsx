import type { Workspace } from '@ledgerline/api';
import { CheckIcon, ChevronDownIcon, cx } from '@ledgerline/ui';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSessionController } from '../session/context';
import { organizationsOf, selectWorkspace } from '../session/selection';
import { initialActive, isSwitcherKey, listedIds, moveActive, pathAfterSwitch, showsSearch, switcherGroups } from './switcher';

export interface WorkspaceSwitcherProps {
  workspaces: readonly Workspace[];
  currentId: string | null;
}

/**
 * The header's workspace switcher: the user's workspaces grouped by organization, the current one marked. Choosing
 * one switches every request to it (`selectWorkspace`: the `x-workspace-id` header, cached answers dropped) and
 * opens the same area there. Keyboard: Enter or Space opens it, arrows / Home / End move, Enter chooses, Escape
 * closes; from seven workspaces a search field filters the list as you type.
 */
export function WorkspaceSwitcher({ workspaces, currentId }: WorkspaceSwitcherProps) {
  const current = workspaces.find((w) => w.id === currentId) ?? null;
  const organizationCount = useMemo(() => organizationsOf(workspaces).length, [workspaces]);
  if (workspaces.length < 2 || current === null) {
    // Nothing to switch to: the workspace's name alone.
    return current ? (
      <span className="hidden truncate rounded-md bg-slate-100 px-2 py-1 text-xs font-medium text-slate-700 sm:inline dark:bg-slate-800 dark:text-slate-300">
        {current.name}
      </span>
    ) : null;
  }
  return (
    <Popover className="min-w-0">
      <PopoverButton
        aria-label={`Switch workspace (current: ${current.name})`}
        data-testid="workspace-switcher"
        className="flex max-w-[9.5rem] min-w-0 items-center gap-1.5 rounded-lg border border-slate-200 bg-white px-2.5 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-50 focus:outline-none data-focus:ring-2 data-focus:ring-brand-500/40 sm:max-w-[18rem] dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium">{current.name}</span>
          {organizationCount > 1 && <span className="hidden truncate text-xs text-slate-500 sm:block dark:text-slate-400">{current.organizationName}</span>}
        </span>
        <ChevronDownIcon className="size-4 shrink-0 text-slate-500" />
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'bottom start', gap: 6, padding: 8 }}
        focus
        data-testid="workspace-switcher-panel"
        className={cx(
          'z-50 flex max-h-[min(24rem,var(--anchor-max-height))] max-w-[min(22rem,calc(100vw-1rem))] min-w-(--button-width) flex-col rounded-lg border border-slate-200 bg-white text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900',
          // With a search the panel keeps one width while the matches change under it.
          showsSearch(workspaces) ? 'w-80' : 'w-max',
        )}
      >
        {({ close }) => <SwitcherList workspaces={workspaces} currentId={current.id} onDone={close} />}
      </PopoverPanel>
    </Popover>
  );
}

function SwitcherList({ workspaces, currentId, onDone }: { workspaces: readonly Workspace[]; currentId: string; onDone: () => void }) {
  const { selectWorkspace: switchTo } = useSessionController();
  const navigate = useNavigate();
  const { pathname, search: locationSearch } = useLocation();
  const [search, setSearch] = useState('');
  const groups = useMemo(() => switcherGroups(workspaces, search), [workspaces, search]);
  const ids = useMemo(() => listedIds(groups), [groups]);
  const [active, setActive] = useState<string | null>(() => initialActive(ids, currentId));
  const activeId = active !== null && ids.includes(active) ? active : initialActive(ids, currentId);
  const baseId = useId();
  const listId = `${baseId}-list`;
  const optionId = (id: string) => `${baseId}-option-${id}`;
  const searchable = showsSearch(workspaces);

  const choose = (workspaceId: string) => {
    onDone();
    if (workspaceId === currentId) return;
    const selection = selectWorkspace(workspaces, workspaceId);
    if (!selection) return;
    void switchTo(selection);
    void navigate(pathAfterSwitch(pathname, locationSearch));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (isSwitcherKey(event.key)) {
      event.preventDefault();
      const next = moveActive(ids, activeId, event.key);
      setActive(next);
      if (next) document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter' && activeId !== null) {
      event.preventDefault();
      choose(activeId);
    }
  };

  const activeDescendant = activeId === null ? undefined : optionId(activeId);
  return (
    <>
      {searchable && (
        <div className="border-b border-slate-100 p-2 dark:border-slate-800">
          <input
            type="search"
            role="combobox"
            aria-label="Search workspaces"
            aria-expanded
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={activeDescendant}
            placeholder="Search workspaces"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setActive(null);
            }}
            onKeyDown={onKeyDown}
            className="block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          />
        </div>
      )}
      <ul
        id={listId}
        role="listbox"
        aria-label="Workspaces"
        tabIndex={searchable ? -1 : 0}
        aria-activedescendant={searchable ? undefined : activeDescendant}
        onKeyDown={searchable ? undefined : onKeyDown}
        className="min-h-0 flex-1 overflow-y-auto p-1 focus:outline-none"
      >
        {groups.length === 0 && <li className="px-3 py-2 text-slate-500 dark:text-slate-400">No workspace matches “{search.trim()}”</li>}
        {groups.map((group) => (
          <li key={group.id} role="presentation">
            <div id={`${baseId}-org-${group.id}`} className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
              {group.name}
            </div>
            <ul role="group" aria-labelledby={`${baseId}-org-${group.id}`}>
              {group.workspaces.map((workspace) => {
                const isCurrent = workspace.id === currentId;
                return (
                  <li
                    key={workspace.id}
                    id={optionId(workspace.id)}
                    role="option"
                    aria-selected={isCurrent}
                    data-active={workspace.id === activeId || undefined}
                    onMouseMove={() => setActive(workspace.id)}
                    onClick={() => choose(workspace.id)}
                    className={cx(
                      'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-slate-700 dark:text-slate-200',
                      'data-active:bg-slate-100 dark:data-active:bg-slate-800',
                      isCurrent && 'font-medium text-slate-900 dark:text-white',
                    )}
                  >
                    <span className="min-w-0 flex-1 truncate">{workspace.name}</span>
                    {workspace.isDefault && <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">Default</span>}
                    <CheckIcon className={cx('size-4 shrink-0 text-brand-600', isCurrent ? 'visible' : 'invisible')} aria-hidden />
                    {isCurrent && <span className="sr-only">(current)</span>}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
