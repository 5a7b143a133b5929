import { firm } from './service.js';

await firm.main();
