import { notifications } from './service.js';

await notifications.main();
