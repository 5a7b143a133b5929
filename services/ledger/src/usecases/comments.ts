import { AppError, EventType, isUuid, newId, writeEvent } from '@ledgerline/platform';
import { COMMENT_MAX_TAGS, COMMENT_MSG, commentProblem, uniqueTags } from '../domain/comments.js';
import { MSG } from '../domain/messages.js';
import { Problems } from '../domain/validation.js';
import { auditDrawerEvent, transactionExists } from '../store/audit-log-drawer.js';
import { commentById, commentsOf, insertComment, type CommentRow } from '../store/comments-store.js';
import { membersByIds, membersOf, rememberMember, type MemberRow } from '../store/workspace-members.js';
import { assertCanEdit, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import type { Actor } from './receipts.js';

export interface CommentView extends CommentRow {
  taggedUsers: { id: string; name: string }[];
}

const displayName = (m: MemberRow) => (m.name !== '' ? m.name : m.email);

/** A member as the tag picker offers them (former: no longer a member; listed only for the names of earlier work). */
export interface TaggableUser {
  id: string;
  name: string;
  email: string;
  former: boolean;
}

/**
 * Comments on a transaction, tagging other members of the workspace. Stored in the ledger until a
 * notifications service exists (it will also notify the tagged users); these RPCs are what moves then.
 *
 * Members (decision 0036): the ledger keeps the workspace's members from identity's member.changed (every membership
 * and firm grant, with names and emails; `events/members.ts`), and adds a user the gateway lets act here before their
 * event arrives. A comment tags current members only; a removed member's earlier comments and tags keep their name.
 */
export class CommentUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async post(tenant: Tenant, transactionId: string, text: string, taggedUsers: readonly string[], actor: Actor | undefined) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    const problem = commentProblem(text);
    if (problem) p.add('comment', problem);
    const tags = uniqueTags(taggedUsers);
    if (tags.some((t) => !isUuid(t))) p.add('taggedUsers', MSG.uuid('taggedUsers'));
    else if (tags.length > COMMENT_MAX_TAGS) p.add('taggedUsers', COMMENT_MSG.tooManyTags);
    p.throwIfAny();
    const userId = tenant.userId;
    if (!userId) throw AppError.invalid([{ field: 'userId', message: MSG.required('userId') }]);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      if (!(await transactionExists(trx, transactionId))) throw AppError.notFound('Transaction');
      await rememberMember(trx, tenant.workspaceId, userId, actor);
      const members = (await membersByIds(trx, tags)).filter((m) => m.removed_at === null);
      if (members.length !== tags.length) throw AppError.invalid([{ field: 'taggedUsers', message: COMMENT_MSG.notMember }]);
      const id = newId();
      const comment = text.trim();
      await insertComment(trx, { id, workspace_id: tenant.workspaceId, transaction_id: transactionId, user_id: userId, comment, tagged_user_ids: tags });
      await auditDrawerEvent(trx, {
        workspaceId: tenant.workspaceId,
        transactionId,
        userId,
        event: 'commented',
        details: { commentId: id, comment, taggedUsers: tags },
      });
      const row = (await commentById(trx, id)) as CommentRow;
      // The notifications service tells each tagged member (decision 0040); published if and only if the comment commits.
      await writeEvent(trx, 'ledger', {
        type: EventType.TransactionCommented,
        workspaceId: tenant.workspaceId,
        payload: { commentId: id, transactionId, authorUserId: userId, authorName: row.user_name ?? '', comment, taggedUserIds: tags },
      });
      return { comment: this.view(row, members), message: COMMENT_MSG.posted };
    });
  }

  /** Oldest first, each with its tagged users' names. */
  async list(tenant: Tenant, transactionId: string): Promise<CommentView[]> {
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      if (!(await transactionExists(trx, transactionId))) throw AppError.notFound('Transaction');
      const rows = await commentsOf(trx, transactionId);
      const members = await membersByIds(trx, [...new Set(rows.flatMap((r) => r.tagged_user_ids))]);
      return rows.map((r) => this.view(r, members));
    });
  }

  /** The members a comment can tag, by name (the caller is one: their visit is recorded); `includeFormer` adds those who left, flagged. */
  async taggableUsers(tenant: Tenant, actor: Actor | undefined, includeFormer = false): Promise<TaggableUser[]> {
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      if (tenant.userId) await rememberMember(trx, tenant.workspaceId, tenant.userId, actor);
      return (await membersOf(trx, includeFormer)).map((m) => ({ id: m.user_id, name: displayName(m), email: m.email, former: m.removed_at !== null }));
    });
  }

  private view(row: CommentRow, members: readonly MemberRow[]): CommentView {
    const byId = new Map(members.map((m) => [m.user_id, m]));
    return { ...row, taggedUsers: row.tagged_user_ids.map((id) => ({ id, name: byId.has(id) ? displayName(byId.get(id) as MemberRow) : '' })) };
  }
}
