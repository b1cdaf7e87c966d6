// Runs a TypeScript worker entry straight from source (tests, tsx): registers tsx in this thread, then loads it.
// Built packages never come here; they start the compiled .js entry directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.__entry);
