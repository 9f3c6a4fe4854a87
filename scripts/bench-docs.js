#!/usr/bin/env node
// Runs the benchmark and records its output in docs/benchmarks.md, between
// <!-- begin bench-output --> and <!-- end bench-output -->, with the date and the machine it ran on.
// `npm run bench:docs` (full run) or `npm run bench:docs -- --quick`. Figures in the docs come only
// from here: never paste them by hand.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const page = fileURLToPath(new URL('docs/benchmarks.md', root));
const BEGIN = '<!-- begin bench-output -->';
const END = '<!-- end bench-output -->';

const args = process.argv.slice(2);
const child = spawn(process.execPath, [fileURLToPath(new URL('bench/run.js', root)), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
const code = await new Promise((resolve) => child.once('close', resolve));
if (code !== 0) {
  process.stderr.write(`bench-docs: the benchmark exited ${code}; ${page} was not changed\n`);
  process.exit(1);
}

const cpu = cpus();
const machine = `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
const recorded = [
  `Recorded by \`npm run bench:docs${args.length ? ` -- ${args.join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  `Machine: ${machine}; load average when it finished ${loadavg()[0].toFixed(2)}.`,
  '',
  '```text',
  output.trim(),
  '```',
].join('\n');

const current = readFileSync(page, 'utf8');
const start = current.indexOf(BEGIN);
const stop = current.indexOf(END);
if (start < 0 || stop < start) {
  process.stderr.write(`bench-docs: ${page} must hold the lines ${BEGIN} and, after it, ${END}\n`);
  process.exit(1);
}
writeFileSync(page, `${current.slice(0, start + BEGIN.length)}\n${recorded}\n${current.slice(stop)}`);
process.stdout.write(`bench-docs: wrote the output into ${page}\n`);
