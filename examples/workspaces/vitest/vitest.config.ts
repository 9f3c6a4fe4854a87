import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/**/*.spec.ts'],
    globalSetup: './test/sandbox-setup.ts',
    pool: 'threads',
    // Three files at once, whatever the number of cores: three workers, three workspaces.
    maxWorkers: 3,
  },
});
