import { useEffect, useRef } from 'react';
import { matchShortcut, type Shortcut } from '../shortcuts';
import { Button } from './Button';
import { Dialog } from './Deferred';

/**
 * Listens for the screen's single-key shortcuts on the document while `enabled`. A shortcut never fires while the
 * person types in a field (matchShortcut) nor while a modal dialog is open above the screen (the dialog owns the
 * keyboard then); a matched key's default (scrolling on ↓, typing the letter) is prevented.
 */
export function useShortcuts(shortcuts: readonly Shortcut[], enabled = true): void {
  // The latest list without re-subscribing on every render (the handlers close over the screen's state).
  const current = useRef(shortcuts);
  useEffect(() => {
    current.current = shortcuts;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const shortcut = matchShortcut(
        { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, defaultPrevented: event.defaultPrevented, target },
        current.current,
      );
      if (shortcut === null) return;
      event.preventDefault();
      shortcut.run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}

/** The '?' sheet: a dialog that lists the screen's shortcuts (Escape or Close closes it). */
export function ShortcutSheet({
  open,
  onClose,
  title = 'Keyboard shortcuts',
  shortcuts,
}: {
  open: boolean;
  onClose: () => void;
  title?: string;
  shortcuts: readonly Pick<Shortcut, 'label' | 'description'>[];
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description="Shortcuts work while no field has the focus."
      actions={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        {shortcuts.map((s) => (
          <div key={s.label} className="contents">
            <dt className="whitespace-nowrap">
              {s.label.split(' or ').map((key, i) => (
                <span key={key}>
                  {i > 0 && <span className="px-1 text-slate-500 dark:text-slate-400"> or </span>}
                  <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-800 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
                    {key}
                  </kbd>
                </span>
              ))}
            </dt>
            <dd className="text-slate-700 dark:text-slate-300">{s.description}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
