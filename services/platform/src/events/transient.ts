/**
 * Whether a handler's failure comes from the infrastructure rather than from the event: the pool had no
 * connection in time, the database or the network dropped the connection, or PostgreSQL gave up on a
 * transaction that is safe to run again (serialization failure, deadlock, lock timeout, shutdown, no
 * resources). Such a failure heals by waiting, so the consumer retries it without counting it toward
 * dead-lettering: an event is only dead-lettered for what it is, never for when it arrived.
 */
const TRANSIENT_SQLSTATE = new Set(['40001', '40P01', '55P03', '57014', '57P01', '57P02', '57P03']);
/** SQLSTATE classes: 08 connection exception, 53 insufficient resources. */
const TRANSIENT_SQLSTATE_CLASS = new Set(['08', '53']);
const TRANSIENT_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const TRANSIENT_MESSAGES = [
  'Timeout acquiring a connection', // knex: the pool is exhausted
  'operation timed out for an unknown reason', // tarn under knex
  'Connection terminated', // pg: the server or the network closed the connection
  'Client has encountered a connection error',
  'terminating connection',
];

export function isTransientError(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e !== null && e !== undefined && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (typeof e !== 'object') return false;
    const { name, code, message } = e as { name?: unknown; code?: unknown; message?: unknown };
    if (name === 'KnexTimeoutError' || name === 'TimeoutError') return true;
    if (typeof code === 'string') {
      if (TRANSIENT_SQLSTATE.has(code) || (code.length === 5 && TRANSIENT_SQLSTATE_CLASS.has(code.slice(0, 2)))) return true;
      if (TRANSIENT_NODE_CODES.has(code)) return true;
    }
    if (typeof message === 'string' && TRANSIENT_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
