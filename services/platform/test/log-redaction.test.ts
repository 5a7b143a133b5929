import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/index.js';
import { redactPaths } from '../src/log-redaction.js';

function captured(): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  // pino writes to a plain stream synchronously.
  return { lines, logger: createLogger('redaction-test', 'trace', stream as unknown as Parameters<typeof createLogger>[2]) };
}

const ACCESS = 'access-sandbox-2f1c9a4e-6d2b-4c0f-9a51-3e8d7b6a5c41';
const PUBLIC = 'public-sandbox-7c3e1d2f-9b8a-4e6d-a5c4-1f2e3d4c5b6a';

describe('the chassis logger', () => {
  it('censors secret fields at any of the first four levels', () => {
    const { lines, logger } = captured();
    logger.info(
      {
        access_token: ACCESS,
        body: { public_token: PUBLIC },
        req: { headers: { authorization: 'Bearer abc.def.ghi', cookie: 'sid=1' } },
        a: { b: { c: { accessToken: ACCESS } } },
        password: 'p',
        keep: 'visible',
      },
      'linked',
    );
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line.access_token).toBe('[redacted]');
    expect(line.body.public_token).toBe('[redacted]');
    expect(line.req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' });
    expect(line.a.b.c.accessToken).toBe('[redacted]');
    expect(line.password).toBe('[redacted]');
    expect(line.keep).toBe('visible');
    expect(lines[0]).not.toContain(ACCESS);
    expect(lines[0]).not.toContain(PUBLIC);
  });

  it("drops an HTTP client error's request data and censors tokens in error texts and messages", () => {
    const { lines, logger } = captured();
    const err = Object.assign(new Error(`Plaid refused ${ACCESS}`), {
      config: { data: JSON.stringify({ access_token: ACCESS, secret: 's' }) },
      response: { data: { error_code: 'ITEM_LOGIN_REQUIRED' } },
      error_code: 'ITEM_LOGIN_REQUIRED',
    });
    logger.error({ err }, 'sync failed');
    logger.warn({ err: `exchange of ${PUBLIC} failed` }, `retrying with Bearer ${'x'.repeat(20)}`);
    const all = lines.join('\n');
    expect(all).not.toContain(ACCESS);
    expect(all).not.toContain(PUBLIC);
    expect(all).not.toContain('x'.repeat(20));
    const first = JSON.parse(lines[0]!);
    expect(first.err.config).toBeUndefined();
    expect(first.err.error_code).toBe('ITEM_LOGIN_REQUIRED');
    expect(first.err.message).toBe('Plaid refused [redacted]');
  });

  it('builds paths pino accepts for names that need brackets', () => {
    expect(redactPaths(['set-cookie', 'token'])).toEqual([
      '["set-cookie"]',
      'token',
      '*["set-cookie"]',
      '*.token',
      '*.*["set-cookie"]',
      '*.*.token',
      '*.*.*["set-cookie"]',
      '*.*.*.token',
    ]);
  });
});
