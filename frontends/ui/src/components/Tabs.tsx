import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { cx } from '../cx';

export interface TabItem<T extends string> {
  value: T;
  label: string;
  content: ReactNode;
}

export interface TabsProps<T extends string> {
  items: readonly TabItem<T>[];
  /** Controlled: screens keep the tab in the `tab` query parameter. */
  value: T;
  onChange: (value: T) => void;
  className?: string;
}

export function Tabs<T extends string>({ items, value, onChange, className }: TabsProps<T>) {
  const selectedIndex = Math.max(
    0,
    items.findIndex((item) => item.value === value),
  );
  const listRef = useRef<HTMLDivElement>(null);
  // A row wider than the screen (a phone) scrolls inside itself: bring the selected tab into view, on the first render
  // (a link to ?tab=customers) and on every change, moving the row only, never the page.
  useLayoutEffect(() => {
    const list = listRef.current;
    // By position: Headless UI marks the tab selected (aria-selected) a render after the value changes.
    const tab = list?.querySelectorAll<HTMLElement>('[role="tab"]')[selectedIndex];
    if (!list || !tab) return;
    const row = list.getBoundingClientRect();
    const box = tab.getBoundingClientRect();
    const margin = 16;
    if (box.left < row.left) list.scrollLeft -= row.left - box.left + margin;
    else if (box.right > row.right) list.scrollLeft += box.right - row.right + margin;
  }, [selectedIndex, items.length]);
  return (
    <TabGroup
      selectedIndex={selectedIndex}
      onChange={(index) => {
        const item = items[index];
        if (item) onChange(item.value);
      }}
      className={className}
    >
      {/* More tabs than the width holds (a phone): the row scrolls sideways in itself, never the page. The base line is
          an inset shadow so the selected tab's underline paints over it without overflowing the scrolling row. */}
      <TabList
        ref={listRef}
        className="flex gap-1 overflow-x-auto overflow-y-hidden shadow-[inset_0_-1px_0_var(--color-slate-200)] [scrollbar-width:thin] dark:shadow-[inset_0_-1px_0_var(--color-slate-800)]"
      >
        {items.map((item) => (
          <Tab
            key={item.value}
            className={cx(
              'shrink-0 border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-500 focus:outline-none',
              'hover:text-slate-800 data-focus:text-slate-800 dark:text-slate-400 dark:hover:text-slate-100',
              'data-selected:border-brand-600 data-selected:text-brand-700 dark:data-selected:border-brand-400 dark:data-selected:text-brand-300',
            )}
          >
            {item.label}
          </Tab>
        ))}
      </TabList>
      <TabPanels className="pt-6">
        {items.map((item) => (
          <TabPanel key={item.value} className="focus:outline-none">
            {item.content}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
