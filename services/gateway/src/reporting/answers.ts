import { LruMap } from '@ledgerline/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authOf } from '../http/auth.js';

/**
 * Report answers as sent, per workspace, route and query, with the etag the reporting service gave them.
 * Every request still asks reporting — with that etag, as a conditional request — and when reporting says
 * the report is unchanged (the workspace's balances, chart and the wait for `seq` are as they were), the
 * stored answer is sent without decoding, re-shaping or serialising the report again. Nothing is served
 * that reporting did not confirm for this request. The etag also goes to the client, so a browser that
 * asks again with If-None-Match gets a 304.
 */
export class ReportAnswers {
  private readonly answers: LruMap<string, { etag: string; body: string }>;

  constructor(maxEntries: number) {
    this.answers = new LruMap(maxEntries);
  }

  /**
   * Answers `req` with the report: `call` asks reporting (passing the etag to compare, '' for none) and
   * `toJson` shapes a full answer for the route's response schema.
   */
  async send<R extends { etag: string; notModified: boolean }>(
    req: FastifyRequest,
    reply: FastifyReply,
    query: Record<string, string>,
    call: (ifNoneMatch: string) => Promise<R>,
    toJson: (r: R) => unknown,
  ): Promise<FastifyReply> {
    const { seq: _seq, ...filters } = query;
    const key = `${authOf(req).workspace?.id ?? ''}|${req.routeOptions.url ?? ''}|${JSON.stringify(filters)}`;
    const held = this.answers.get(key);
    const clientTag = etagValue(req.headers['if-none-match']);
    const r = await call(held?.etag ?? clientTag);
    const etag = r.etag;
    reply.header('etag', `"${etag}"`).header('cache-control', 'private, no-store').header('vary', 'authorization, x-workspace-id');
    if (clientTag === etag) return reply.code(304).send();
    let body: string;
    if (r.notModified) {
      // Reporting compared with the etag this gateway sent: ours, or (holding none) the client's, which differs from it or we returned above.
      if (!held || held.etag !== etag) throw new Error('reporting answered not modified for an answer this gateway does not hold');
      body = held.body;
    } else {
      const serialized = reply.serialize(toJson(r));
      if (typeof serialized !== 'string') throw new Error('report answers serialise to text');
      body = serialized;
      if (etag) this.answers.set(key, { etag, body });
    }
    return reply.type('application/json; charset=utf-8').send(body);
  }
}

/** The first entity tag of an If-None-Match header, unquoted ('' when none). */
function etagValue(header: string | undefined): string {
  const m = /^\s*(?:W\/)?"([^"]*)"/.exec(header ?? '');
  return m?.[1] ?? '';
}
