import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'chunker', environment: 'node', testTimeout: 60_000 } });
