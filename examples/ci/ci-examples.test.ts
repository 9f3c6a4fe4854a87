/**
 * The CI files docs/containers.md shows (GitHub Actions, docker compose) are valid YAML and use
 * only what the image really has: every DEPOSIT_SANDBOX_* variable is one `serve` reads, the port
 * is the one the Dockerfile exposes, and waiting for "healthy" relies on the Dockerfile's
 * HEALTHCHECK. (Running them needs Docker and GitHub; test/container/ runs the image itself.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const SERVE_HELP = execFileSync(process.execPath, [`${ROOT}bin/deposit-sandbox.js`, 'serve', '--help'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
const DOCKERFILE = read('Dockerfile');
const FILES = ['examples/ci/github-actions-service.yml', 'examples/ci/github-actions-build.yml', 'examples/ci/docker-compose.yml', 'examples/ci/gitlab-ci.yml'];
/** The files whose job fetches the integration report while the sandbox runs. */
const REPORTING = ['examples/ci/github-actions-service.yml', 'examples/ci/gitlab-ci.yml'];

describe.each(FILES)('%s', (file) => {
  const text = read(file);

  it('is valid YAML', () => {
    expect(() => parse(text)).not.toThrow();
    expect(parse(text)).toBeTypeOf('object');
  });

  it('sets only variables the sandbox reads', () => {
    const names = [...text.matchAll(/\b(DEPOSIT_SANDBOX_[A-Z_]+)\b/g)].map((m) => m[1]!);
    for (const name of names) expect(SERVE_HELP, `${file}: ${name} is not a serve variable`).toContain(`env: ${name}`);
  });

  it('talks to the port the image exposes, and waits on the image health check', () => {
    expect(DOCKERFILE).toMatch(/^EXPOSE 4242$/m);
    expect(DOCKERFILE).toMatch(/^HEALTHCHECK /m);
    expect(text).toMatch(/4242:4242|deposit-sandbox:4242/);
    expect(text).toMatch(/--health-interval 1s|service_healthy|\/_sandbox\/health/);
  });
});

describe.each(REPORTING)('%s', (file) => {
  it('fetches the report as JUnit from the running sandbox, even when the tests failed', () => {
    const text = read(file);
    expect(text).toMatch(/curl -sf "http:\/\/[^"]+:4242\/_sandbox\/report\?format=junit" -o deposit-sandbox-report\.xml/);
    expect(text).toMatch(/if: always\(\)|after_script:/);
  });
});
