/**
 * Reading the README and the pages of docs/ as their tests need them: fenced blocks (with the
 * heading above and the marker comment before each), links, and the anchors GitHub gives headings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every docs/*.md, as paths relative to the repository root. */
export function markdownFiles(): string[] {
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

export const readDoc = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

export interface Fence {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** The nearest heading above the block, without its #s. */
  heading: string;
  /** `<!-- name: value -->` on the line right before the fence (blank lines between allowed). */
  marker: { name: string; value: string } | undefined;
}

const MARKER = /^<!--\s*([a-z-]+):\s*(.*?)\s*-->$/;

/** The fenced code blocks of a Markdown text, in order. */
export function fences(file: string, markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const found: Fence[] = [];
  let heading = '';
  let open: { lang: string; line: number; body: string[]; marker: Fence['marker'] } | undefined;
  let marker: Fence['marker'];
  lines.forEach((line, index) => {
    if (open) {
      if (line === '```') {
        found.push({ file, line: open.line, lang: open.lang, code: open.body.map((l) => `${l}\n`).join(''), heading, marker: open.marker });
        open = undefined;
      } else open.body.push(line);
      return;
    }
    const fence = /^```(\S*)$/.exec(line);
    const comment = MARKER.exec(line);
    if (fence) {
      open = { lang: fence[1]!, line: index + 1, body: [], marker };
      marker = undefined;
    } else if (comment) {
      marker = { name: comment[1]!, value: comment[2]! };
    } else if (/^#{1,6} /.test(line)) {
      heading = line.replace(/^#+ /, '');
      marker = undefined;
    } else if (line.trim() !== '') {
      marker = undefined;
    }
  });
  if (open) throw new Error(`${file}:${open.line}: a \`\`\`${open.lang} block is never closed`);
  return found;
}

/** The text outside fenced blocks (so links and headings inside code are not read). */
export function prose(markdown: string): string[] {
  let inFence = false;
  return markdown.split('\n').map((line) => {
    if (/^```/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line;
  });
}

/** The anchors GitHub gives the headings of a Markdown text. */
export function anchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) found.add(slugger.slug(heading[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  }
  return found;
}

export interface Link {
  line: number;
  target: string;
}

/** Every Markdown link `[text](target)` outside code (inline code spans removed). */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  prose(markdown).forEach((line, index) => {
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ line: index + 1, target: match[1]! });
  });
  return found;
}

/** The lines between `<!-- begin NAME -->` and `<!-- end NAME -->`, or undefined. */
export function generatedSection(markdown: string, name: string): string | undefined {
  const begin = markdown.indexOf(`<!-- begin ${name} -->`);
  const end = markdown.indexOf(`<!-- end ${name} -->`);
  if (begin < 0 || end < begin) return undefined;
  return markdown.slice(markdown.indexOf('\n', begin) + 1, end);
}

export interface InlineCode {
  /** 1-based line where the span starts. */
  line: number;
  code: string;
  /** The nearest heading above the span, as written (backticks kept). */
  heading: string;
}

/** Every inline code span outside fenced blocks (a span may wrap onto the next line, not across a blank one). */
export function inlineCode(markdown: string): InlineCode[] {
  const lines = prose(markdown);
  const text = lines.join('\n');
  const headings: { at: number; text: string }[] = [];
  let offset = 0;
  for (const line of lines) {
    if (/^#{1,6} /.test(line)) headings.push({ at: offset, text: line.replace(/^#+ /, '') });
    offset += line.length + 1;
  }
  const found: InlineCode[] = [];
  for (const match of text.matchAll(/(?<!`)(`+)(?!`)((?:(?!\n\s*\n)[\s\S])+?)(?<!`)\1(?!`)/g)) {
    const at = match.index;
    const line = text.slice(0, at).split('\n').length;
    const heading = headings.filter((h) => h.at <= at).at(-1)?.text ?? '';
    found.push({ line, code: match[2]!.replace(/\s*\n\s*/g, ' ').trim(), heading });
  }
  return found;
}
