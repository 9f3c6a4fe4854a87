#!/usr/bin/env node
// Regenerates what is derived from the scenario format and the bundled scenarios:
//   scenarios/schema.json      (from the zod schema, for editor completion)
//   the magic-values table     (between the magic-values markers of README.md and of every
//                               docs/*.md page holding them, or of the Markdown files given
//                               as arguments)
//   each command's --help      (between <!-- begin cli-help --> and <!-- end cli-help --> of docs/cli-help.md)
// Run it with `npm run docs` (which builds first: this script reads dist/).
// `node scripts/docs.js --check` changes nothing and exits 1 when a file is stale.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const dist = (path) => new URL(`dist/${path}`, root).href;

const { renderSchemaJson } = await import(dist('scenarios/schema-json.js'));
const { MAGIC_START, renderMagicValues, replaceMagicValues } = await import(dist('scenarios/magic-values.js'));
const { loadScenarios, BUNDLED_SCENARIOS } = await import(dist('scenarios/load-scenarios.js'));
const { createProgram } = await import(dist('cli/program.js'));

const args = process.argv.slice(2);
const check = args.includes('--check');
const markdownFiles = args.filter((arg) => arg !== '--check');
const defaults = markdownFiles.length === 0;
if (defaults) {
  const docs = fileURLToPath(new URL('docs/', root));
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .map((name) => `${docs}${name}`)
    : [];
  for (const file of [fileURLToPath(new URL('README.md', root)), ...pages]) {
    if (existsSync(file) && readFileSync(file, 'utf8').includes(MAGIC_START)) markdownFiles.push(file);
  }
}

const table = renderMagicValues(loadScenarios([{ path: BUNDLED_SCENARIOS, bundled: true }]));
const outputs = [[fileURLToPath(new URL('scenarios/schema.json', root)), () => renderSchemaJson()]];
for (const file of markdownFiles) outputs.push([file, (current) => replaceMagicValues(current, table, file)]);
if (defaults) {
  outputs.push([fileURLToPath(new URL('docs/cli-help.md', root)), (current) => replaceSection(current, 'cli-help', renderCliHelp(), 'docs/cli-help.md')]);
}

/** `deposit-sandbox --help` and `deposit-sandbox <command> --help` for every command, as printed (80 columns). */
function renderCliHelp() {
  const bin = fileURLToPath(new URL('bin/deposit-sandbox.js', root));
  const help = (args) => execFileSync(process.execPath, [bin, ...args, '--help'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '80' } }).trimEnd();
  const commands = createProgram().commands.map((command) => command.name());
  const sections = [['deposit-sandbox --help', help([])], ...commands.map((name) => [`deposit-sandbox ${name} --help`, help([name])])];
  return sections.map(([title, text]) => `### \`${title}\`\n\n\`\`\`text\n${text}\n\`\`\`\n`).join('\n');
}

/** Writes `body` between <!-- begin NAME --> and <!-- end NAME --> (each once) of a Markdown text. */
function replaceSection(markdown, name, body, file) {
  const begin = `<!-- begin ${name} -->`;
  const end = `<!-- end ${name} -->`;
  const start = markdown.indexOf(begin);
  const stop = markdown.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`${file} must hold the lines ${begin} and, after it, ${end}`);
  return `${markdown.slice(0, start + begin.length)}\n\n${body}\n${markdown.slice(stop)}`;
}

let stale = 0;
for (const [file, render] of outputs) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT' || file.endsWith('.md')) {
      process.stderr.write(`docs: cannot read ${file}: ${error.message}\n`);
      process.exit(1);
    }
  }
  let next;
  try {
    next = render(current);
  } catch (error) {
    process.stderr.write(`docs: ${error.message}\n`);
    process.exit(1);
  }
  if (next === current) {
    process.stdout.write(`docs: ${file} is up to date\n`);
    continue;
  }
  stale++;
  if (check) {
    process.stdout.write(`docs: ${file} is stale\n`);
  } else {
    writeFileSync(file, next);
    process.stdout.write(`docs: wrote ${file}\n`);
  }
}
if (check && stale > 0) {
  process.stderr.write('docs: run `npm run docs` and commit the result\n');
  process.exit(1);
}
