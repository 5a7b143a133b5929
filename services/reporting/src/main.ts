import { reporting } from './service.js';

await reporting.main();
