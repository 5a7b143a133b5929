import { identity } from './service.js';

await identity.main();
