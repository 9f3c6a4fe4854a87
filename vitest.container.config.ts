import { defineConfig } from 'vitest/config';

// `npm run test:container`: builds and runs the container image (test/container/), apart from
// the main suite because it takes minutes and needs podman.
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 900_000,
    pool: 'forks',
  },
});
