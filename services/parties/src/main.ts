import { parties } from './service.js';

await parties.main();
