import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { registerCheckCallback } from './check-callback.js';
import { registerReset } from './reset.js';
import { scenariosCommand } from './scenarios.js';
import { serveCommand } from './serve.js';
import { registerSign } from './sign.js';
import { DEFAULT_SANDBOX_URL, triggerCommand, type TriggerOptions } from './trigger.js';

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
  // A boolean flag set from the environment: DEPOSIT_SANDBOX_IN_MEMORY=0 / false / no means off.
  const inMemory =
    command.getOptionValueSource('inMemory') === 'env'
      ? !/^(0|false|no|off)?$/i.test((process.env[env('IN_MEMORY')] ?? '').trim())
      : o['inMemory'];
  return Object.fromEntries(
    Object.entries({ ...o, port, inMemory }).filter(([, value]) => value !== undefined),
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
    .addOption(new Option('--auth <mode>', 'what X-Auth / X-Token must hold (default either)').choices(['token', 'signature', 'either', 'off']).env(env('AUTH')))
    .addOption(new Option('--seed <n>', 'repeatable trade ids and requisites').env(env('SEED')))
    .addOption(new Option('--clock <mode>', 'sandbox clock: real or manual').choices(['real', 'manual']).env(env('CLOCK')))
    .addOption(new Option('--scenarios <dir>', 'folder of scenario YAML files, matched before the bundled ones').env(env('SCENARIOS')))
    .addOption(new Option('--admin-token <token>', 'require "Authorization: Bearer <token>" on the /_sandbox admin API').env(env('ADMIN_TOKEN')))
    .addOption(new Option('--callback-timeout <duration>', 'how long a callback receiver has to answer 2xx (default 10s)').env(env('CALLBACK_TIMEOUT')))
    .addOption(new Option('--callback-retries <list>', 'waits between callback attempts, then failed (default 1s,5s,30s,2m,10m)').env(env('CALLBACK_RETRIES')))
    .addOption(new Option('--workspace-ttl <duration>', 'remove a workspace (/w/<name>) unused this long; 0 = never (default 24h)').env(env('WORKSPACE_TTL')))
    .addOption(new Option('--max-workspaces <n>', 'how many workspaces besides default may exist (default 1000)').env(env('MAX_WORKSPACES')));
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
  program
    .command('scenarios')
    .description('check the scenario files and list every scenario with its magic values, in match order')
    .addOption(new Option('--scenarios <dir>', 'folder of scenario YAML files, listed before the bundled ones').env(env('SCENARIOS')))
    .option('--json', 'print {"scenarios": [...]} as GET /_sandbox/scenarios does')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox scenarios\n  $ deposit-sandbox scenarios --scenarios ./my-scenarios --json\n')
    .action((options: { scenarios?: string; json?: boolean }) => scenariosCommand(options));
  program
    .command('trigger')
    .description('move a trade to a state through the admin API of a running sandbox')
    .argument('<trade-id>', 'the trade id (the "id" of the create response)')
    .argument('<state>', 'confirmed, canceled or expired')
    .addOption(new Option('--url <url>', `the sandbox address (default ${DEFAULT_SANDBOX_URL})`).env(env('URL')))
    .addOption(new Option('--admin-token <token>', 'the sandbox\'s --admin-token, if it has one').env(env('ADMIN_TOKEN')))
    .addOption(new Option('--workspace <name>', 'the workspace (/w/<name>) the trade is in; default: the unprefixed one').env(env('WORKSPACE')))
    .option('--note <text>', 'a note for the trade\'s history')
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox trigger 3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11 confirmed\n  $ deposit-sandbox trigger <id> canceled --url http://127.0.0.1:5000 --admin-token s3cret\n  $ deposit-sandbox trigger <id> confirmed --workspace worker-3\n')
    .action((tradeId: string, state: string, options: TriggerOptions) => triggerCommand(tradeId, state, options));
  registerSign(program);
  registerReset(program, DEFAULT_SANDBOX_URL);
  registerCheckCallback(program);
  program.addHelpText('after', `${EXAMPLES}\nEvery flag of serve (the default command): deposit-sandbox serve --help\n`);
  return program;
}
