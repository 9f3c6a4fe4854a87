import { Option, type Command } from 'commander';
import { DEFAULT_SANDBOX_URL } from '../admin-client/admin-client.js';
import { BUILTIN_PROFILE_NAMES } from '../profile/builtin-profile-names.js';
import type { SignOptions } from './sign-command.js';

const SIGN_HELP = `
The string to sign is the endpoint's fields in the document's order joined with "::" (an
absent field is empty); the signature is its lowercase hex HMAC-SHA256 keyed with the secret.
That is the sandbox profile. --profile signs as another provider profile does (its algorithm,
separator, secret slot, encoding and header; docs/provider-profile.md): a built-in or your file.
The built-ins: ${BUILTIN_PROFILE_NAMES.join(', ')}.
With --workspace the workspace's own profile is used unless --profile is given. A secret that is
a slot of the string is shown as <secret>. When the profile's signature has a header of its own
(X-Signature), the token still goes in X-Auth / X-Token.

Examples:
  $ deposit-sandbox sign --secret sandbox-secret-demo merchant=6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51 \\
      order=order-1001 amount_cents=31250 amount_currency=RUB type=any_bank
  $ deposit-sandbox sign --endpoint get merchant=6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51 uuid=<trade id>
  $ deposit-sandbox sign --profile md5-colon merchant=6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51 order=o-1 amount_cents=100 amount_currency=RUB type=nspk
  $ deposit-sandbox sign --profile ./my-provider.yaml --secret s3cret --json merchant=<id> order=o-1 amount_cents=100 amount_currency=RUB type=nspk
  $ deposit-sandbox sign --workspace worker-3 merchant=<id of a merchant added to it> order=o-1 amount_cents=100 amount_currency=RUB type=nspk
  $ deposit-sandbox sign --secret s3cret --body '{"merchant":"...","order":"o-1","amount_cents":100,"amount_currency":"RUB","type":"nspk"}'
  $ deposit-sandbox sign --batch --secret s3cret < requests.jsonl
`;

/** Registers `deposit-sandbox sign`. */
export function registerSign(program: Command): void {
  program
    .command('sign')
    .description('print the string to sign and the X-Auth / X-Token signature of a request (for debugging a 401)')
    .argument('[fields...]', 'the request fields as name=value (customer or cusotmer fills the cusotmer slot)')
    .addOption(new Option('--secret <secret>', "the merchant's secret (default: the fixtures' secret of merchant=<id>)").env('DEPOSIT_SANDBOX_SECRET'))
    .addOption(new Option('--endpoint <endpoint>', 'which request').choices(['create', 'build', 'get']).default('create'))
    .option('--body <json>', 'the JSON request body; name=value fields win over it')
    .addOption(new Option('--fixtures <file>', 'fixtures to find the secret in (default: the bundled ones)').env('DEPOSIT_SANDBOX_FIXTURES'))
    .addOption(new Option('--workspace <name>', 'have the running sandbox sign with the secret of a merchant of this workspace (/w/<name>)').env('DEPOSIT_SANDBOX_WORKSPACE'))
    .addOption(new Option('--url <url>', `with --workspace: the sandbox address (default ${DEFAULT_SANDBOX_URL})`).env('DEPOSIT_SANDBOX_URL'))
    .addOption(new Option('--admin-token <token>', "with --workspace: the sandbox's --admin-token, if it has one").env('DEPOSIT_SANDBOX_ADMIN_TOKEN'))
    .addOption(
      new Option('--profile <name|file>', "sign as this provider profile does: a built-in or a YAML/JSON file (default: the workspace's with --workspace, else sandbox)").env(
        'DEPOSIT_SANDBOX_PROFILE',
      ),
    )
    .option('--json', 'print {endpoint, fields, string_to_sign, signature, header, secret_from, profile, algorithm, token_header}')
    .option(
      '--batch',
      'sign every request of standard input, one JSON object per line ({"endpoint", "profile", "secret", "fields"}, each optional: the flags fill in), and print the --json result of each on one line',
    )
    .addHelpText('after', SIGN_HELP)
    .action(async (fields: string[], options: SignOptions, command: Command) => {
      // Loaded when the command runs: the fixtures' checks (zod, yaml) are not compiled by every other command's start.
      const { signCommand } = await import('./sign-command.js');
      // DEPOSIT_SANDBOX_PROFILE (also serve's) does not override a workspace's own profile; --profile does.
      const fromEnv = command.getOptionValueSource('profile') === 'env';
      const chosen = fromEnv ? { ...options, profile: undefined, envProfile: options.profile } : options;
      if (options.batch) {
        const { signBatchCommand } = await import('./sign-batch.js');
        const workspaceFromEnv = command.getOptionValueSource('workspace') === 'env';
        const write = (text: string) => void process.stdout.write(text);
        const warn = (text: string) => void process.stderr.write(text);
        if ((await signBatchCommand(fields, { ...chosen, workspaceFromEnv }, process.stdin, write, warn)) > 0) process.exitCode = 1;
        return;
      }
      await signCommand(fields, chosen);
    });
}
