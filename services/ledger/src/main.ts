import { ledger } from './service.js';

await ledger.main();
