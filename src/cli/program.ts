import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { serveCommand } from './serve.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const env = (name: string) => `DEPOSIT_SANDBOX_${name}`;

const EXAMPLES = `
Examples:
  $ deposit-sandbox                                  # 127.0.0.1:4242, data in ./.deposit-sandbox
  $ deposit-sandbox --port 0 --in-memory             # a throwaway sandbox on a free port
  $ deposit-sandbox --auth signature --seed 42       # insist on signatures, repeatable ids
  $ deposit-sandbox --fixtures ./my-merchants.json --public-url http://localhost:8080
  $ PORT=5000 deposit-sandbox serve --data /tmp/sandbox-data
`;

/** Collects the options of `serve` into the shape createSandbox() takes. */
function serveOptions(command: Command): Record<string, unknown> {
  const o = command.opts<Record<string, unknown>>();
  const port = o['port'] ?? process.env['PORT'];
  return Object.fromEntries(
    Object.entries({ ...o, port }).filter(([, value]) => value !== undefined),
  );
}

function addServeOptions(command: Command): Command {
  return command
    .addOption(new Option('-p, --port <port>', 'port to listen on; 0 picks a free one (default 4242, env PORT too)').env(env('PORT')))
    .addOption(new Option('--host <host>', 'interface to bind (default 127.0.0.1)').env(env('HOST')))
    .addOption(new Option('--data <dir>', 'folder of the JSON file store (default ./.deposit-sandbox)').env(env('DATA')))
    .addOption(new Option('--in-memory', 'keep nothing on disk').env(env('IN_MEMORY')))
    .addOption(new Option('--fixtures <file>', 'merchants fixtures JSON instead of the bundled one').env(env('FIXTURES')))
    .addOption(new Option('--public-url <url>', 'base of payment_data.url (default: the listening address)').env(env('PUBLIC_URL')))
    .addOption(new Option('--auth <mode>', 'what X-Auth / X-Token must hold').choices(['token', 'signature', 'either', 'off']).env(env('AUTH')))
    .addOption(new Option('--seed <n>', 'repeatable trade ids and requisites').env(env('SEED')))
    .addOption(new Option('--clock <mode>', 'sandbox clock: real or manual').choices(['real', 'manual']).env(env('CLOCK')));
}

export function createProgram(): Command {
  const program = new Command('deposit-sandbox')
    .description('A local sandbox of the Deposit Trade Service.')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run deposit-sandbox --help for usage)');

  const serve = addServeOptions(
    program.command('serve', { isDefault: true }).description('start the sandbox (the default command)'),
  )
    .addHelpText('after', EXAMPLES)
    .action(async (_options: unknown, command: Command) => {
      await serveCommand(serveOptions(command));
    });
  void serve;
  program.addHelpText('after', EXAMPLES);
  return program;
}
