import { MenuButton, MenuItem, MenuItems, Menu as HeadlessMenu } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cx } from '../cx';

export interface MenuEntry {
  label: string;
  onSelect: () => void;
  danger?: boolean;
}

export interface MenuProps {
  /** The button's content. */
  trigger: ReactNode;
  /** The button's accessible name when its content is not text. */
  triggerLabel?: string;
  header?: ReactNode;
  items: readonly MenuEntry[];
}

export function Menu({ trigger, triggerLabel, header, items }: MenuProps) {
  return (
    <HeadlessMenu>
      <MenuButton
        aria-label={triggerLabel}
        className="flex items-center gap-2 rounded-lg px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 focus:outline-none data-focus:ring-2 data-focus:ring-brand-500/40 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {trigger}
      </MenuButton>
      <MenuItems
        anchor={{ to: 'bottom end', gap: 6, padding: 8 }}
        className="z-50 min-w-52 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
      >
        {header && <div className="border-b border-slate-100 px-3 py-2 dark:border-slate-800">{header}</div>}
        {items.map((item) => (
          <MenuItem key={item.label}>
            <button
              type="button"
              onClick={item.onSelect}
              className={cx(
                'block w-full rounded-md px-3 py-2 text-left data-focus:bg-slate-100 dark:data-focus:bg-slate-800',
                item.danger ? 'text-red-700 dark:text-red-400' : 'text-slate-700 dark:text-slate-200',
              )}
            >
              {item.label}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </HeadlessMenu>
  );
}
