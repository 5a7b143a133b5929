// The ui kit's components built on Headless UI, in a chunk of their own: the first load (/login) needs none of them,
// and Headless UI with its positioning library is a third of the shell's first-load JavaScript. The kit's index
// exports each one through components/Deferred.tsx, which renders it once this module has loaded; the signed-in
// layout and the auth pages that use them load it with their own code (preloadWidgets), so no screen waits on it.
export { Combobox } from './components/Combobox';
export { DatePicker, DateRangePicker } from './components/DateRangePicker';
export { Dialog } from './components/Dialog';
export { Menu } from './components/Menu';
export { MultiSelect } from './components/MultiSelect';
export { Select } from './components/Select';
export { Tabs } from './components/Tabs';
