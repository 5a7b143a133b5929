import { billing } from './service.js';

await billing.main();
