import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { BUNDLED_FIXTURES } from '../merchants/fixtures.js';
import { createServer, type Server } from '../server/server.js';
import { startupLines } from './startup-lines.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function sandboxOn(input: { data: string } | { inMemory: true }) {
  const server = await createServer(input);
  servers.push(server);
  return server.root;
}

describe('startupLines', () => {
  it('names the store and the fixtures file as paths inside the container when the image says it runs in one', async ({ folder }) => {
    const sandbox = await sandboxOn({ data: folder });
    const lines = startupLines(sandbox, true);
    expect(lines).toContain(`  store:    ${join(folder, 'db.json')} inside the container (0 trades)\n`);
    expect(lines).toContain(`(token and secret: in ${BUNDLED_FIXTURES} inside the container)\n`);
  });

  it('outside a container, the paths as they are', async ({ folder }) => {
    const sandbox = await sandboxOn({ data: folder });
    const lines = startupLines(sandbox, false);
    expect(lines).toContain(`  store:    ${join(folder, 'db.json')} (0 trades)\n`);
    expect(lines).toContain(`(token and secret: in ${BUNDLED_FIXTURES})\n`);
    expect(lines).not.toContain('inside the container');
  });

  it('a store in memory is no path, in a container or not', async () => {
    const sandbox = await sandboxOn({ inMemory: true });
    expect(startupLines(sandbox, true)).toMatch(/^ {2}store: {4}memory \(0 trades\)\n/);
  });
});
