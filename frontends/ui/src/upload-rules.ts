// The drop zone's rules (decision 0029), pure: the browser's pre-check of a file, file sizes as people read them, and
// each file's share of a multipart request's progress. Tested in test/upload-rules.test.ts.

export interface FileLike {
  name: string;
  size: number;
}

export interface UploadLimits {
  /** Lower-case extensions without the dot, e.g. ['jpg', 'jpeg', 'png', 'pdf']. */
  extensions: readonly string[];
  maxBytes: number;
}

/** 1 KB = 1024 bytes; one decimal under 10 of a unit. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} ${units[unit]}`;
}

/** 'jpg, jpeg, png or pdf'. */
export function listOfTypes(extensions: readonly string[]): string {
  if (extensions.length <= 1) return extensions.join('');
  return `${extensions.slice(0, -1).join(', ')} or ${extensions.at(-1)}`;
}

const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/**
 * Why the browser will not send this file, or null. Worded as the server words its refusals ('x.png is larger than
 * 10 MB'), so a file refused here reads like one refused there. By name only: the server judges the content.
 */
export function precheckFile(file: FileLike, limits: UploadLimits): string | null {
  if (!limits.extensions.includes(extensionOf(file.name))) return `${file.name} is not a ${listOfTypes(limits.extensions)} file`;
  if (file.size === 0) return `${file.name} is empty`;
  if (file.size > limits.maxBytes) return `${file.name} is larger than ${formatFileSize(limits.maxBytes)}`;
  return null;
}

/**
 * Each file's part (0–1) of a request that carries `sizes` in order, when `sent` of `total` bytes went: the body's
 * overhead (boundaries, headers, fields) is spread over the files by size, so the last file reaches 1 only when the
 * whole body has gone. `total` 0 (unknown) counts the files' sizes as the total.
 */
export function filesProgress(sizes: readonly number[], sent: number, total: number): number[] {
  const sum = sizes.reduce((s, n) => s + n, 0);
  if (sum === 0) return sizes.map(() => (total > 0 && sent >= total ? 1 : 0));
  const whole = total > 0 ? total : sum;
  const position = Math.min(1, Math.max(0, sent / whole)) * sum;
  let offset = 0;
  return sizes.map((size) => {
    const part = size === 0 ? (position >= offset ? 1 : 0) : Math.min(1, Math.max(0, (position - offset) / size));
    offset += size;
    return part;
  });
}
