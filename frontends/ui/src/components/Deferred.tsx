import { use, type ComponentType } from 'react';
import type * as WidgetsModule from '../widgets';

type Widgets = typeof WidgetsModule;
type WidgetName = keyof Widgets;

let loaded: Widgets | undefined;
let loading: Promise<Widgets> | undefined;

/**
 * Starts loading the Headless UI components (src/widgets.ts) and resolves when they are there. A page that shows one
 * loads its code together with this (the shell's signed-in layout does), so the component renders at once; a failed
 * load is tried again by the next caller.
 */
export function preloadWidgets(): Promise<void> {
  loading ??= import('../widgets').then(
    (widgets) => {
      loaded = widgets;
      return widgets;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading.then(() => undefined);
}

/** True once the components are loaded (a test or a screen that must not suspend can check). */
export const widgetsLoaded = (): boolean => loaded !== undefined;

/**
 * `name` from src/widgets.ts, rendered as soon as that chunk is loaded; before then it suspends to the nearest
 * Suspense boundary (every lazy page has one). Same props, generics and ref as the component itself.
 */
function deferred<K extends WidgetName>(name: K): Widgets[K] {
  function Deferred(props: Record<string, unknown>) {
    if (loaded === undefined) void preloadWidgets();
    const widgets = loaded ?? use(loading as Promise<Widgets>);
    const Widget = widgets[name] as unknown as ComponentType<Record<string, unknown>>;
    return <Widget {...props} />;
  }
  Deferred.displayName = name;
  return Deferred as unknown as Widgets[K];
}

export const Combobox = deferred('Combobox');
export const DatePicker = deferred('DatePicker');
export const DateRangePicker = deferred('DateRangePicker');
export const Dialog = deferred('Dialog');
export const Menu = deferred('Menu');
export const MultiSelect = deferred('MultiSelect');
export const Select = deferred('Select');
export const Tabs = deferred('Tabs');
