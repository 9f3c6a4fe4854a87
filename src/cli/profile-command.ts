import { Option, type Command } from 'commander';
import type { ProfileDetectOptions } from './profile-detect-command.js';

const PROFILE_HELP = `
Examples:
  $ deposit-sandbox profile detect --secret <secret> --callback captured-callback.http
  $ deposit-sandbox profile detect --secret <secret> --request create-request.har --entry 3
`;

const DETECT_HELP = `
Reads one captured HTTP request, as raw HTTP text (request line, headers, a blank line, the
body) or as HAR (a whole file, one entry, or one request), and names the built-in profiles whose
signature scheme verifies it with the secret, or says that none does and what it tried. A
request (--request) is one of the three endpoints: its values are read from its body or path. A
callback (--callback) is verified over its raw body, exactly as captured. Exits 0 when a scheme
verifies it, 1 when none does.

Examples:
  $ deposit-sandbox profile detect --secret <secret> --callback captured-callback.http
  $ deposit-sandbox profile detect --secret <secret> --request create-request.har --entry 3 --json
`;

/** Registers `deposit-sandbox profile` and its `detect`. */
export function registerProfile(program: Command): void {
  const profile = program.command('profile').description('provider profiles: name the built-in scheme that signs a captured request or callback').addHelpText('after', PROFILE_HELP);
  profile
    .command('detect')
    .description('name the built-in signature scheme(s) that verify a captured request or callback')
    .addOption(new Option('--secret <secret>', "the merchant's secret").env('DEPOSIT_SANDBOX_SECRET'))
    .option('--request <file>', 'a captured provider request (create, build or get): raw HTTP or HAR')
    .option('--callback <file>', 'a captured callback: raw HTTP or HAR')
    .option('--entry <n>', 'which entry of a HAR file (1 for the first), when it holds several')
    .option('--json', 'print {"kind", "verified": [...], "tried": [...], "notes"}')
    .addHelpText('after', DETECT_HELP)
    .action(async (options: ProfileDetectOptions) => {
      // Loaded when the command runs: the profiles' checks (zod, yaml) are not compiled by every other command's start.
      const { profileDetectCommand } = await import('./profile-detect-command.js');
      process.exitCode = profileDetectCommand(options);
    });
}
