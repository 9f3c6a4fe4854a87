import { Option, type Command } from 'commander';
import type { ProfileDetectOptions } from './profile-detect-command.js';

const PROFILE_HELP = `
Example:
  $ deposit-sandbox profile detect --secret <s> --callback captured-callback.http
`;

const DETECT_HELP = `
Reads one captured request (raw HTTP, or HAR) and names the built-in profiles whose signature
scheme verifies it with the secret, or says none does and what it tried (exit 1). See
docs/drift.md.

Examples:
  $ deposit-sandbox profile detect --secret <s> --callback captured-callback.http
  $ deposit-sandbox profile detect --secret <s> --request create.har --entry 3
`;

/** Registers `deposit-sandbox profile` and its `detect`. */
export function registerProfile(program: Command): void {
  const profile = program.command('profile').description('name the scheme that signs a capture').addHelpText('after', PROFILE_HELP);
  profile
    .command('detect')
    .description('name the built-in scheme that signs a captured request')
    .addOption(new Option('--secret <secret>', "the merchant's secret").env('DEPOSIT_SANDBOX_SECRET'))
    .option('--request <file>', 'a captured create, build or get')
    .option('--callback <file>', 'a captured callback')
    .option('--entry <n>', 'which entry of a HAR file (1 = first)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', DETECT_HELP)
    .action(async (options: ProfileDetectOptions) => {
      // Loaded when the command runs: the profiles' checks (zod, yaml) are not compiled by every other command's start.
      const { profileDetectCommand } = await import('./profile-detect-command.js');
      process.exitCode = profileDetectCommand(options);
    });
}
