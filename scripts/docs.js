#!/usr/bin/env node
// Regenerates what is derived from the scenario format and the bundled scenarios:
//   scenarios/schema.json      (from the zod schema, for editor completion)
//   the magic-values table     (between the magic-values markers of README.md and of every
//                               docs/*.md page holding them, or of the Markdown files given
//                               as arguments)
//   each command's --help      (between <!-- begin cli-help --> and <!-- end cli-help --> of docs/cli-help.md;
//                              a command of OWN_PAGE on its own page, between the same markers)
//   the flag tables            (between <!-- begin cli-flags --> and <!-- end cli-flags --> of docs/cli.md),
//                              from the commander program's options
//   the admin route list       (between <!-- begin admin-routes --> and <!-- end admin-routes --> of
//                              docs/admin-api.md), from the Hono app's routes and the OpenAPI summaries
// Run it with `npm run docs` (which builds first: this script reads dist/).
// `node scripts/docs.js --check` changes nothing and exits 1 when a file is stale.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';

const root = new URL('../', import.meta.url);
/**
 * Commands whose --help is on the page that describes them, not in docs/cli-help.md (which is at
 * its 600-line bound); cli-help.md keeps their heading, pointing there.
 */
const OWN_PAGE = { 'go-live': 'go-live.md', sign: 'cli.md' };

const dist = (path) => new URL(`dist/${path}`, root).href;

const { renderSchemaJson } = await import(dist('scenarios/schema-json.js'));
const { MAGIC_START, renderMagicValues, replaceMagicValues } = await import(dist('scenarios/magic-values.js'));
const { loadScenarios, BUNDLED_SCENARIOS } = await import(dist('scenarios/load-scenarios.js'));
const { createProgram } = await import(dist('cli/program.js'));
const { listFlags } = await import(dist('cli/list-flags.js'));
const { listRoutes, isAdminRoute } = await import(dist('openapi/list-routes.js'));
const { openApiDocument } = await import(dist('openapi/openapi-document.js'));
const { createApp } = await import(dist('app.js'));
const { createServer } = await import(dist('server/server.js'));

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
  for (const [command, page] of Object.entries(OWN_PAGE)) {
    outputs.push([fileURLToPath(new URL(`docs/${page}`, root)), (current) => replaceSection(current, 'cli-help', renderCliHelp(command), `docs/${page}`)]);
  }
  outputs.push([fileURLToPath(new URL('docs/cli.md', root)), (current) => replaceSection(current, 'cli-flags', renderFlagTables(), 'docs/cli.md')]);
  const routes = await appRoutes();
  outputs.push([fileURLToPath(new URL('docs/admin-api.md', root)), (current) => replaceSection(current, 'admin-routes', renderAdminRoutes(routes), 'docs/admin-api.md')]);
}

/**
 * `deposit-sandbox --help` and `deposit-sandbox <command> --help` for every command, as the program
 * prints them at 80 columns (rendered in this process by commander itself, the same text as the
 * CLI's); given `only`, that command's alone. In the full list a command of OWN_PAGE has a line that
 * points to its page instead.
 */
function renderCliHelp(only) {
  const program = createProgram();
  const help = (command) => {
    let text = '';
    const write = (chunk) => {
      text += chunk;
    };
    command.configureOutput({ writeOut: write, writeErr: write, getOutHelpWidth: () => 80, getOutHasColors: () => false });
    command.outputHelp();
    return text.trimEnd();
  };
  const commands = program.commands.filter((command) => only === undefined || command.name() === only);
  const sections = [
    ...(only === undefined ? [['deposit-sandbox --help', help(program)]] : []),
    ...commands.map((command) => [`deposit-sandbox ${command.name()} --help`, help(command), command.name()]),
  ];
  return sections
    .map(([title, text, name]) => {
      // In the full list, a command of OWN_PAGE keeps its heading (and its anchor), pointing to its page.
      const page = only === undefined ? OWN_PAGE[name] : undefined;
      return `### \`${title}\`\n\n${page ? `On the page that describes the command: [${page}](${page}#${helpAnchor(name)}).\n` : `\`\`\`text\n${text}\n\`\`\`\n`}`;
    })
    .join('\n');
}

/** Text of a Markdown table cell: no HTML tags, no column breaks. */
const cell = (text) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The anchor GitHub gives a heading of cli-help.md (`### \`deposit-sandbox wait --help\``). */
const helpAnchor = (command) => new GithubSlugger().slug(`deposit-sandbox ${command} --help`);

/** serve's flags as a table (flag, environment variable, help text), then every other command's flags. */
function renderFlagTables() {
  const flags = listFlags(createProgram()).filter((flag) => flag.long !== '--help');
  const serve = flags.filter((flag) => flag.command === 'serve');
  const lines = [
    `Every flag of \`serve\` (the default command), as \`deposit-sandbox serve --help\` describes it:`,
    '',
    '| Flag | Environment | What it does |',
    '|---|---|---|',
    ...serve.map((flag) => `| \`${flag.flags}\` | ${flag.env ? `\`${flag.env}\`` : ''} | ${cell(flag.description)} |`),
    '',
    'The flags of the other commands (each links to its `--help`: in [CLI help](cli-help.md), or on the page that describes the command):',
    '',
    '| Command | Flags |',
    '|---|---|',
  ];
  const others = [...new Set(flags.map((flag) => flag.command))].filter((command) => command !== '' && command !== 'serve');
  for (const command of others) {
    const own = flags.filter((flag) => flag.command === command).map((flag) => `\`${flag.flags}\``);
    const name = command.split(' ')[0];
    lines.push(`| [\`${command}\`](${OWN_PAGE[name] ?? 'cli-help.md'}#${helpAnchor(name)}) | ${own.join(', ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The routes of the app, read from an in-memory sandbox's Hono app. */
async function appRoutes() {
  const sandbox = await createServer({ inMemory: true });
  try {
    return listRoutes(createApp(sandbox));
  } finally {
    await sandbox.close();
  }
}

/** Placeholders written any way (`:id`, `<id>`, `{id}`) made alike, and a workspace prefix taken off. */
const routeShape = (method, path) =>
  `${method} ${path
    .replace(/^\/w\/[^/]+(?=\/)/, '')
    .split('/')
    .map((segment) => (/^(:.+|<.+>|\{.+\})$/.test(segment) ? ':' : segment))
    .join('/')}`;

/**
 * Where the docs describe each route: a heading that names it (`## \`GET /_sandbox/trades\``), of this
 * page first; else the section of the first page whose text names it. Keyed by routeShape.
 */
function routeSections() {
  const docs = fileURLToPath(new URL('docs/', root));
  const pages = readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .sort((a, b) => (a === 'admin-api.md' ? -1 : b === 'admin-api.md' ? 1 : a.localeCompare(b)));
  const inHeading = new Map();
  const inText = new Map();
  for (const page of pages) {
    const slugger = new GithubSlugger();
    let section = { page, anchor: '' };
    let fenced = false;
    for (const line of readFileSync(`${docs}${page}`, 'utf8').split('\n')) {
      if (line.startsWith('```')) fenced = !fenced;
      if (fenced) continue;
      const heading = /^#{1,6} (.*)$/.exec(line);
      if (heading) section = { page, anchor: slugger.slug(heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')) };
      for (const match of line.matchAll(/`(GET|POST|PUT|DELETE|PATCH) (\/[^\s`?]*)/g)) {
        const found = heading ? inHeading : inText;
        const key = routeShape(match[1], match[2]);
        if (!found.has(key)) found.set(key, section);
      }
    }
  }
  return (method, path) => inHeading.get(routeShape(method, path)) ?? inText.get(routeShape(method, path));
}

/** Every route of the admin API, by path: method and path, the OpenAPI summary, and where the docs describe it. */
function renderAdminRoutes(routes) {
  const summaries = new Map(
    Object.entries(openApiDocument().paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, operation.summary]),
    ),
  );
  const sectionOf = routeSections();
  const lines = ['| Route | What it does | Described in |', '|---|---|---|'];
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const sorted = routes.filter(isAdminRoute).sort((a, b) => a.path.localeCompare(b.path) || methods.indexOf(a.method) - methods.indexOf(b.method));
  for (const route of sorted) {
    const section = sectionOf(route.method, route.path);
    const here = section?.page === 'admin-api.md';
    const target = section ? `${here ? '' : section.page}${section.anchor ? `#${section.anchor}` : ''}` : '';
    const link = section ? `[${here ? 'below' : section.page.replace(/\.md$/, '')}](${target})` : '';
    lines.push(`| \`${route.method} ${route.path}\` | ${cell(summaries.get(`${route.method} ${route.path}`) ?? '')} | ${link} |`);
  }
  return `${lines.join('\n')}\n`;
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
