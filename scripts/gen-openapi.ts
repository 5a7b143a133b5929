// The gateway's OpenAPI document → frontends/api/openapi.json → typed paths and schemas for the web app.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '@ledgerline/gateway';
import { run } from './lib/run.js';

const doc = await openApiDocument();
writeFileSync('frontends/api/openapi.json', `${JSON.stringify(doc, null, 2)}\n`);
await run('npm', ['run', 'gen', '-w', '@ledgerline/api']);
console.log('openapi: frontends/api/openapi.json and src/gen/schema.d.ts written');
