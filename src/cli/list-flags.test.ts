import { Command, Option } from 'commander';
import { expect, it } from 'vitest';
import { listFlags } from './list-flags.js';
import { createProgram } from './program.js';

it('lists the flags --help shows, per command, with their environment variable', () => {
  const program = new Command('tool').version('1.0.0', '-v, --version');
  program.command('serve').addOption(new Option('-p, --port <port>', 'port').env('TOOL_PORT')).option('--quiet', 'say less');
  program.command('hidden-flag').addOption(new Option('--secret', 'not shown').hideHelp());
  expect(listFlags(program).map(({ command, flags, env }) => [command, flags, env])).toEqual([
    ['', '-v, --version', undefined],
    ['', '-h, --help', undefined],
    ['serve', '-p, --port <port>', 'TOOL_PORT'],
    ['serve', '--quiet', undefined],
    ['serve', '-h, --help', undefined],
    ['hidden-flag', '-h, --help', undefined],
  ]);
});

it("holds the sandbox's serve flags that the docs table is written from", () => {
  const serve = listFlags(createProgram()).filter((flag) => flag.command === 'serve');
  expect(serve.map((flag) => flag.long)).toEqual(expect.arrayContaining(['--port', '--workspace-ttl', '--max-workspaces', '--help']));
  expect(serve.find((flag) => flag.long === '--workspace-ttl')?.env).toBe('DEPOSIT_SANDBOX_WORKSPACE_TTL');
});
