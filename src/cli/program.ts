import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { registerCheckCallback } from './check-callback.js';
import { registerClock } from './clock.js';
import { registerDrift } from './drift.js';
import { registerFork } from './fork.js';
import { registerGoLive } from './go-live.js';
import { registerHealth } from './health.js';
import { registerProfile } from './profile-command.js';
import { registerReplay } from './replay.js';
import { registerReport } from './report.js';
import { registerReset } from './reset.js';
import { registerSession } from './session.js';
import { optionNames, serveOptions } from './serve-options.js';
import { registerSign } from './sign.js';
import { registerTrigger } from './trigger.js';
import { registerStop } from './stop.js';
import { registerWait } from './wait.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const env = (name: string) => `DEPOSIT_SANDBOX_${name}`;

const EXAMPLES = `
Examples:
  $ deposit-sandbox                                  # 127.0.0.1:4242, data in ./.deposit-sandbox
  $ deposit-sandbox --port 0 --in-memory             # a throwaway sandbox on a free port
  $ deposit-sandbox --auth signature --seed 42       # insist on signatures, repeatable ids
  $ deposit-sandbox --fixtures ./my-merchants.json --public-url http://localhost:8080
  $ deposit-sandbox --profile strict                 # only what the interface document guarantees
  $ deposit-sandbox --profile ./my-provider.yaml     # your provider's signing, callbacks and errors
  $ PORT=5000 deposit-sandbox serve --data /tmp/sandbox-data
`;

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
    .addOption(new Option('--no-bundled-scenarios', 'turn off the bundled scenarios (orders starting with "sbx-")').env(env('NO_BUNDLED_SCENARIOS')))
    .addOption(new Option('--ready-file <path>', 'once listening, write {"url": ..., "pid": ...} to this file (removed on exit)').env(env('READY_FILE')))
    .addOption(new Option('--admin-token <token>', 'require "Authorization: Bearer <token>" on the /_sandbox admin API').env(env('ADMIN_TOKEN')))
    .addOption(new Option('--callback-timeout <duration>', 'how long a callback receiver has to answer 2xx (default 10s)').env(env('CALLBACK_TIMEOUT')))
    .addOption(new Option('--callback-retries <list>', "waits between callback attempts, then failed (default: the profile's, 1s,5s,30s,2m,10m)").env(env('CALLBACK_RETRIES')))
    .addOption(
      new Option('--profile <profile>', 'the provider profile: a built-in (sandbox, strict, md5-colon, ...) or a YAML/JSON file (default sandbox; docs/provider-profile.md)').env(env('PROFILE')),
    )
    .addOption(new Option('--shutdown-timeout <duration>', 'on SIGINT/SIGTERM, how long requests in flight may take before every connection is closed (default 10s)').env(env('SHUTDOWN_TIMEOUT')))
    .addOption(new Option('--page-lang <lang>', 'payment page language when neither ?lang= nor Accept-Language picks one (default ru)').choices(['ru', 'en']).env(env('PAGE_LANG')))
    .addOption(new Option('--report <file>', 'write the integration report (JUnit XML) to this file on exit').env(env('REPORT')))
    .addOption(
      new Option(
        '--probe <url>',
        "your balance probe (GET <url>?order=<order>): the report's callback rows are handled only when it shows the right credit; {merchant} and {workspace} in it are replaced",
      ).env(env('PROBE')),
    )
    .addOption(new Option('--workspace-ttl <duration>', 'remove a workspace (/w/<name>) unused this long; 0 = never (default 24h)').env(env('WORKSPACE_TTL')))
    .addOption(new Option('--max-workspaces <n>', 'how many workspaces besides default may exist (default 1000)').env(env('MAX_WORKSPACES')))
    .addOption(new Option('--record-limit <size>', 'most kept per workspace (default 10MB)').env(env('RECORD_LIMIT')))
    .addOption(new Option('--no-record', 'record no session in any workspace').env(env('NO_RECORD')))
    .addOption(new Option('--record-dir <dir>', 'HAR of each workspace here on stop, removal').env(env('RECORD_DIR')));
}

export function createProgram(): Command {
  const program = new Command('deposit-sandbox')
    .description('A local sandbox of the Deposit Trade Service.')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run deposit-sandbox --help for usage)');

  const serve = addServeOptions(program.command('serve', { isDefault: true }).description('start the sandbox (the default command)'))
    .addHelpText('after', EXAMPLES)
    .action(async (_options: unknown, command: Command) => {
      const { options, readyFile, reportFile } = serveOptions(command);
      const { serveCommand } = await import('./serve.js');
      await serveCommand(options, {
        names: optionNames(command),
        ...(readyFile !== undefined ? { readyFile } : {}),
        ...(reportFile !== undefined ? { reportFile } : {}),
      });
    });
  void serve;
  program
    .command('scenarios')
    .description('check the scenario files and list every scenario with its magic values, in match order')
    .addOption(new Option('--scenarios <dir>', 'folder of scenario YAML files, listed before the bundled ones').env(env('SCENARIOS')))
    .addOption(new Option('--no-bundled-scenarios', 'leave the bundled scenarios out, as serve --no-bundled-scenarios does').env(env('NO_BUNDLED_SCENARIOS')))
    .option('--json', 'print {"scenarios": [...]} as GET /_sandbox/scenarios does')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox scenarios\n  $ deposit-sandbox scenarios --scenarios ./my-scenarios --json\n')
    .action(async (_options: unknown, command: Command) => {
      const { scenariosCommand } = await import('./scenarios.js');
      scenariosCommand(serveOptions(command).options as { scenarios?: string; bundledScenarios?: boolean; json?: boolean });
    });
  registerTrigger(program);
  registerSign(program);
  registerReset(program);
  registerWait(program);
  registerStop(program);
  registerClock(program);
  registerReplay(program);
  registerFork(program);
  registerSession(program);
  registerCheckCallback(program);
  registerHealth(program);
  registerReport(program);
  registerGoLive(program);
  registerDrift(program);
  registerProfile(program);
  program.addHelpText('after', `${EXAMPLES}\nEvery flag of serve (the default command): deposit-sandbox serve --help\n`);
  return program;
}
