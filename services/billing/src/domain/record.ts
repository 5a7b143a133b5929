// A record's rules: pure, no I/O.

export const TITLE_MAX = 200;

/** A record as the use cases answer it. */
export interface RecordView {
  id: string;
  title: string;
  createdAt: Date;
}

/** What is wrong with a title, in the words the client shows (undefined: nothing). */
export function titleProblem(title: string): string | undefined {
  if (title.trim() === '') return 'Title is required';
  if (title.length > TITLE_MAX) return `Title must be at most ${TITLE_MAX} characters`;
  return undefined;
}
