// `npm start -w @ledgerline/s3-sandbox`: the sandbox on S3_SANDBOX_PORT (default 9000), with the bucket S3_SANDBOX_BUCKETS (comma-separated).
import { startS3Sandbox } from './index.js';

const sandbox = await startS3Sandbox({
  port: Number(process.env.S3_SANDBOX_PORT ?? 9000),
  host: process.env.S3_SANDBOX_HOST ?? '127.0.0.1',
  region: process.env.S3_SANDBOX_REGION || undefined,
  accessKeyId: process.env.S3_SANDBOX_ACCESS_KEY_ID || undefined,
  secretAccessKey: process.env.S3_SANDBOX_SECRET_ACCESS_KEY || undefined,
  buckets: (process.env.S3_SANDBOX_BUCKETS ?? 'ledgerline-documents')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== ''),
});
process.stdout.write(`s3 sandbox listening on ${sandbox.url} (region ${sandbox.region}, access key ${sandbox.accessKeyId})\n`);

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
