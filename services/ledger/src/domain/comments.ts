/** Comments on a transaction, tagging other users of the workspace (spec §3 Comment; §5 "A comment needs text"). Pure. */

export const COMMENT_MAX_LENGTH = 2000;
export const COMMENT_MAX_TAGS = 20;

export const COMMENT_MSG = {
  posted: 'Posted Comment Succesfully',
  required: 'comment is required',
  tooLong: `comment must be at most ${COMMENT_MAX_LENGTH} characters`,
  tooManyTags: `taggedUsers can hold at most ${COMMENT_MAX_TAGS} users`,
  notMember: 'taggedUsers must be members of the workspace',
} as const;

/** The comment's text as stored (trimmed), or the problem with it. */
export function commentProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return COMMENT_MSG.required;
  if ([...t].length > COMMENT_MAX_LENGTH) return COMMENT_MSG.tooLong;
  return null;
}

/** Tagged user ids without repeats, in the order given. */
export function uniqueTags(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}
