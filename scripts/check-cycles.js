// node scripts/check-cycles.js: fails (exit 1) when the imports of src/ form a circle, printing each.
// Every import counts, `import type` too: a circle through types still ties the modules together.
// A small script over the import statements rather than a package: src/ imports only relative
// `.js` paths that name `.ts`/`.tsx` files, which is all it needs to follow.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function target(from, specifier) {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  return ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((path) => existsSync(path));
}

const graph = new Map();
for (const file of files(SRC)) {
  const text = readFileSync(file, 'utf8');
  const edges = new Set();
  for (const match of text.matchAll(IMPORT)) {
    const to = target(file, match[1] ?? match[2]);
    if (to) edges.add(to);
  }
  graph.set(file, [...edges]);
}

// Tarjan's strongly connected components: every component of more than one file is a circle.
let index = 0;
const stack = [];
const state = new Map();
const circles = [];
function visit(node) {
  const own = { index, low: index, onStack: true };
  index++;
  state.set(node, own);
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    const seen = state.get(next);
    if (!seen) {
      visit(next);
      own.low = Math.min(own.low, state.get(next).low);
    } else if (seen.onStack) own.low = Math.min(own.low, seen.index);
  }
  if (own.low === own.index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) circles.push(component);
  }
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

if (circles.length === 0) {
  process.stdout.write(`check-cycles: no import circle among ${graph.size} files of src/\n`);
} else {
  process.stderr.write(`check-cycles: ${circles.length} import circle(s) in src/; each group imports itself round:\n`);
  for (const circle of circles)
    process.stderr.write(
      `  ${circle
        .map((file) => relative(ROOT, file))
        .sort()
        .join('\n    ')}\n`,
    );
  process.exitCode = 1;
}
