/** What a MultiSelect's button says: the one choice, or how many. */
export function multiSelectSummary(labels: readonly string[], placeholder: string): string {
  if (labels.length === 0) return placeholder;
  if (labels.length === 1) return labels[0] ?? placeholder;
  return `${labels.length} selected`;
}
