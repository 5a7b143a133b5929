export { cx } from './cx';
/** The kit's field look (border, brand focus ring, error state) for a field the kit has no component for, e.g. a textarea. */
export { inputClass } from './components/field-parts';
export { formatMoney, formatRelativeTime, formatShortMoney, shortId } from './format';
export { Button } from './components/Button';
export type { ButtonProps, ButtonSize, ButtonVariant } from './components/Button';
export { TextField } from './components/TextField';
export type { TextFieldProps } from './components/TextField';
export { PasswordField } from './components/PasswordField';
export type { PasswordFieldProps } from './components/PasswordField';
export { Checkbox } from './components/Checkbox';
export type { CheckboxProps } from './components/Checkbox';
export { Select } from './components/Deferred';
export type { SelectOption, SelectProps } from './components/Select';
export { MultiSelect } from './components/Deferred';
export { multiSelectSummary } from './multi-select-summary';
export type { MultiSelectProps } from './components/MultiSelect';
export { Combobox } from './components/Deferred';
export { addOptionLabel, addOptionText, filterOptions, groupOptions, SEARCH_CLEAR_DELAY_MS, startsSearch } from './combobox-options';
export type { ComboboxOptionItem, OptionHeader, OptionSection } from './combobox-options';
export type { ComboboxProps } from './components/Combobox';
export { Dialog } from './components/Deferred';
export type { DialogProps } from './components/Dialog';
export { NoticeProvider, useErrorNotice, useNotice } from './components/Notices';
export type { NoticeApi } from './components/Notices';
export { DEFAULT_NOTICE_DURATION_MS, noticeEdges, noticeSpace, noticeSpaces, noticeSpaceVariable, resolveNotice } from './notice-rules';
export type { Notice, NoticeAction, NoticeEdge, NoticeEdges, NoticeInput, NoticePlacement, NoticeType, ScreenBox } from './notice-rules';
export { Spinner } from './components/Spinner';
export type { SpinnerProps } from './components/Spinner';
export { EmptyState } from './components/EmptyState';
export { RecordLink } from './components/RecordLink';
export type { EmptyStateProps } from './components/EmptyState';
export { Card } from './components/Card';
export type { CardProps } from './components/Card';
export { Tabs } from './components/Deferred';
export type { TabItem, TabsProps } from './components/Tabs';
export { AreaTabs } from './components/AreaTabs';
export type { Area, AreaPageProps, AreaTab, AreaTabsProps } from './components/AreaTabs';
export { Menu } from './components/Deferred';
export type { MenuEntry, MenuProps } from './components/Menu';
export { THEME_STORAGE_KEY, ThemeProvider, ThemeToggle, applyTheme, initialTheme, readStoredTheme, useTheme } from './components/Theme';
export type { Theme } from './components/Theme';
export { BellIcon, CheckIcon, ChevronDownIcon, CloseIcon, InboxIcon, InfoIcon, MenuIcon, MoonIcon, SunIcon, WarningIcon } from './icons';
export { bindDraft, useForm } from './use-form';
export type { BoundField, FormErrors } from './use-form';
export { DatePicker, DateRangePicker, preloadWidgets, widgetsLoaded } from './components/Deferred';
export type { DatePickerProps, DateRangePickerProps } from './components/DateRangePicker';
export {
  CUSTOM_DATE,
  DATE_INPUT_LENGTH,
  DATE_RANGE_PRESETS,
  addDays,
  addYears,
  calendarWeeks,
  dateBounds,
  defaultReportPeriod,
  dateRangeMessages,
  formatDateInput,
  formatShortDate,
  isDaySelectable,
  parseDateInput,
  pickDay,
  presetOf,
  presetRange,
  rangeFromInputs,
  shiftMonth,
  toDateInput,
  todayIso,
  validateDateInput,
  validateDateRangeInputs,
  yearList,
} from './date-range';
export type { CalendarDay, DateRange, DateRangeErrors, DateRangeInputs, DateRangePreset, IsoDate } from './date-range';
export { AmountInput } from './components/AmountInput';
export type { AmountInputProps } from './components/AmountInput';
export { AMOUNT_MAX_LENGTH, parseAmount, sanitizeAmount } from './amount';
export { isTypingTarget, matchShortcut } from './shortcuts';
export type { Shortcut, ShortcutKeyEvent } from './shortcuts';
export { ShortcutSheet, useShortcuts } from './components/Shortcuts';
export { searchShown, searchWritten, trackSearch, useSearchWriter } from './search-state';
export type { SearchTracker, SearchWriteOptions } from './search-state';
export { FILTERS_STORAGE_KEY, readStoredFilterSet, readStoredFilterSets, writeStoredFilterSet } from './stored-filters';
export { PageSkeleton, lazyPage } from './components/Lazy';
export type { LazyPageComponent } from './components/Lazy';
export { DropZone } from './components/DropZone';
export type { DropZoneProps, DropZoneRefusal } from './components/DropZone';
export { filesProgress, formatFileSize, listOfTypes, precheckFile } from './upload-rules';
export type { FileLike, UploadLimits } from './upload-rules';
