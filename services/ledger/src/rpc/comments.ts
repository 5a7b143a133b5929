import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import { CommentSchema, TaggedUserSchema, type LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { CommentUseCases, CommentView } from '../usecases/comments.js';

const tenantOf = (ctx: HandlerContext) => requireTenant(ctx);

const commentMessage = (c: CommentView) =>
  create(CommentSchema, {
    id: c.id,
    transactionId: c.transaction_id,
    comment: c.comment,
    userId: c.user_id,
    userName: c.user_name ?? '',
    taggedUsers: c.taggedUsers.map((t) => create(TaggedUserSchema, t)),
    createdAt: new Date(c.created_at).toISOString(),
  });

/** The drawer's comment RPCs (thin edge). */
export function commentHandlers(u: CommentUseCases): Pick<ServiceImpl<typeof LedgerService>, 'postComment' | 'listComments' | 'listTaggableUsers'> {
  return {
    async postComment(req, ctx) {
      const r = await u.post(tenantOf(ctx), req.transactionId, req.comment, req.taggedUsers, req.actor);
      return { comment: commentMessage(r.comment), message: r.message };
    },
    async listComments(req, ctx) {
      return { comments: (await u.list(tenantOf(ctx), req.transactionId)).map(commentMessage) };
    },
    async listTaggableUsers(req, ctx) {
      return { users: (await u.taggableUsers(tenantOf(ctx), req.actor, req.includeFormer)).map((t) => create(TaggedUserSchema, t)) };
    },
  };
}
