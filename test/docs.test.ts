/**
 * The README and docs/ stay true and readable:
 * - the README is a landing page (at most 250 lines), no page is over 600 lines;
 * - every relative link points at a file that exists, and every anchor at a heading that exists;
 * - every fenced block is one of: a `bash` block (run by test/docs-examples.test.ts), an `sh` block
 *   of set-up commands of the reader's machine (installing, CI, containers), output (`text`, `json`,
 *   `http`), or code marked as a copy of a file the suites run (`<!-- file: path -->`, the whole
 *   file) or an excerpt of one (`<!-- excerpt: path -->`), or a scenario file the loader accepts
 *   (`<!-- check: scenario-file -->`);
 * - generated sections (magic values, schema, CLI help, the flag tables of docs/cli.md, the route list
 *   of docs/admin-api.md) are what `npm run docs` writes now.
 * What each rule means for a writer: docs/writing-docs.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from './temp-folder.js';
import { loadScenarios } from '../src/scenarios/load-scenarios.js';
import { anchors, fences, links, markdownFiles, readDoc, ROOT, type Fence } from './docs/markdown.js';

const FILES = markdownFiles();
const ALL_FENCES = FILES.flatMap((file) => fences(file, readDoc(file)));
const at = (fence: Fence) => `${fence.file}:${fence.line}`;

/** Languages that are output or data: shown, not run. */
const OUTPUT = new Set(['text', 'json', 'http']);
/** Languages of code that must be a marked copy or excerpt of a file the suites run. */
const CODE = new Set(['ts', 'js', 'python', 'php', 'go', 'yaml', 'dockerfile']);
/** Programs an `sh` block may start a command with: the reader's own machine and CI. */
const SETUP = /^(sudo )?(npm|npx vitest|apt-get|podman|docker|docker-compose|pytest|python3 -m pytest|phpunit|go test|git|export|cd|jq|uptime|bash \.ci\/run|CI=true)\b/;

describe('page sizes', () => {
  it('the README is a landing page of at most 250 lines', () => {
    const lines = readDoc('README.md').split('\n').length - 1;
    expect(lines, 'README.md is too long: move reference into docs/').toBeLessThanOrEqual(250);
  });

  it.each(FILES.filter((file) => file !== 'README.md'))('%s has at most 600 lines', (file) => {
    expect(readDoc(file).split('\n').length - 1).toBeLessThanOrEqual(600);
  });
});

describe('links', () => {
  it.each(FILES)('every relative link and anchor of %s resolves', (file) => {
    const broken: string[] = [];
    const markdown = readDoc(file);
    for (const { line, target } of links(markdown)) {
      if (/^[a-z]+:/i.test(target)) continue; // http(s), mailto: not followed here
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (!existsSync(join(ROOT, resolved))) {
        broken.push(`${file}:${line}: ${target} (no file ${resolved})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readDoc(resolved)).has(anchor)) {
        broken.push(`${file}:${line}: ${target} (no heading with the anchor #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('fenced blocks', () => {
  it('every block has a language the docs tests know', () => {
    const unknown = ALL_FENCES.filter((f) => f.lang !== 'bash' && f.lang !== 'sh' && !OUTPUT.has(f.lang) && !CODE.has(f.lang)).map((f) => `${at(f)}: \`\`\`${f.lang || '(none)'}`);
    expect(unknown, 'use bash (run by the docs test), sh (set-up commands), text/json/http (output) or a marked code block').toEqual([]);
  });

  it('sh blocks hold only set-up commands, never a call of the sandbox (those go in bash blocks, which run)', () => {
    const wrong: string[] = [];
    for (const fence of ALL_FENCES.filter((f) => f.lang === 'sh')) {
      let continued = false;
      for (const line of fence.code.split('\n')) {
        const command = line.replace(/\s+#.*$/, '').trim();
        const isContinuation = continued;
        continued = command.endsWith('\\');
        if (command === '' || command.startsWith('#') || isContinuation) continue;
        if (!SETUP.test(command) || /deposit-sandbox (serve|trigger|reset|sign|check-callback|scenarios|report|wait|health)\b|127\.0\.0\.1:4242/.test(command)) {
          wrong.push(`${at(fence)}: ${command}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it.for(ALL_FENCES.filter((f) => CODE.has(f.lang)).map((f) => [at(f), f] as const))('%s is a marked copy or excerpt of a file the suites run', ([, fence], { folder }) => {
    const marker = fence.marker;
    expect(marker, `${at(fence)}: put <!-- file: path -->, <!-- excerpt: path --> or <!-- check: scenario-file --> right above the block`).toBeDefined();
    if (marker!.name === 'check') {
      expect(marker!.value).toBe('scenario-file');
      writeFileSync(join(folder, 'example.yaml'), fence.code);
      expect(() => loadScenarios([{ path: `${folder}/`, bundled: false }])).not.toThrow();
      return;
    }
    expect(['file', 'excerpt']).toContain(marker!.name);
    const path = join(ROOT, marker!.value);
    expect(existsSync(path), `${at(fence)}: ${marker!.value} does not exist`).toBe(true);
    const source = readFileSync(path, 'utf8');
    if (marker!.name === 'file') {
      expect(fence.code === source, `${at(fence)} differs from ${marker!.value}: copy the file into the block`).toBe(true);
      return;
    }
    // An excerpt: every non-blank line of the block is a line of the file, in the same order.
    const fileLines = source.split('\n').map((l) => l.trim());
    let from = 0;
    for (const line of fence.code
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')) {
      const found = fileLines.indexOf(line, from);
      expect(found, `${at(fence)}: the line ${JSON.stringify(line)} is not in ${marker!.value} (after line ${from})`).toBeGreaterThanOrEqual(0);
      from = found + 1;
    }
  });
});

describe('generated sections', () => {
  it('`npm run docs` would change nothing (schema, magic values, CLI help, flag tables, admin routes)', () => {
    let output = '';
    try {
      output = execFileSync(process.execPath, [join(ROOT, 'scripts', 'docs.js'), '--check'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      expect.fail(`generated docs are stale: run \`npm run docs\` and commit the result\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
    }
    expect(output).toMatch(/cli-help\.md is up to date/);
    expect(output).toMatch(/cli\.md is up to date/);
    expect(output).toMatch(/admin-api\.md is up to date/);
  });

  it('the benchmark page holds the recorded-output markers that `npm run bench:docs` writes between', () => {
    const page = readDoc('docs/benchmarks.md');
    expect(page).toContain('<!-- begin bench-output -->');
    expect(page).toContain('<!-- end bench-output -->');
  });
});
