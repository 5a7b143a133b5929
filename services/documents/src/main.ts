import { documents } from './service.js';

await documents.main();
