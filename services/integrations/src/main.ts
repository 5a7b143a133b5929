import { integrations } from './service.js';

await integrations.main();
