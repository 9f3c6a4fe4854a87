import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // examples/ holds the README's merchant-flow test; it imports the built package ('deposit-sandbox' -> dist/).
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // The container test builds an image (minutes, podman): `npm run test:container` runs it.
    exclude: ['**/node_modules/**', 'test/container/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
