import { banking } from './service.js';

await banking.main();
