/**
 * docs/containers.md shows how to build where no image registry is reachable (the local-base
 * script) before it shows how to run the image, and the script points at a page that exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'test', 'container', 'make-node-base.sh');

describe('building the image without a registry', () => {
  it('every page make-node-base.sh names exists (from the repository root or from the script folder)', () => {
    const pages = [...readFileSync(SCRIPT, 'utf8').matchAll(/[\w./-]+\.md\b/g)].map((match) => match[0]);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(existsSync(join(ROOT, page)) || existsSync(join(dirname(SCRIPT), page)), page).toBe(true);
  });

  it('docs/containers.md shows the local-base build up front, before running the image', () => {
    const page = readFileSync(join(ROOT, 'docs', 'containers.md'), 'utf8');
    const section = page.indexOf('## Where no image registry is reachable');
    expect(section).toBeGreaterThan(0);
    expect(section).toBeLessThan(page.indexOf('## Run it'));
    const text = page.slice(section, page.indexOf('## Run it'));
    expect(text).toContain('test/container/make-node-base.sh');
    expect(text).toContain('--build-arg NODE_IMAGE=localhost/node-base:20');
  });
});
