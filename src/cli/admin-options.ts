import { Option, type Command } from 'commander';
import { DEFAULT_SANDBOX_URL, SANDBOX_URL_ENV, type SandboxTarget } from '../admin-client/sandbox-target.js';

/** The options every admin command (trigger, reset, wait, ...) shares. */
export interface AdminCommandOptions {
  url?: string;
  adminToken?: string;
  workspace?: string;
}

/**
 * Adds the options every command that talks to a running sandbox takes. A new shared
 * option is one more line here (and one more field in AdminCommandOptions / adminTarget).
 */
export function addAdminOptions(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', `the sandbox address (default ${DEFAULT_SANDBOX_URL})`).env(SANDBOX_URL_ENV))
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one").env('DEPOSIT_SANDBOX_ADMIN_TOKEN'))
    .addOption(new Option('--workspace <name>', 'a workspace (/w/<name>) of that sandbox; default: the unprefixed one').env('DEPOSIT_SANDBOX_WORKSPACE'));
}

/** The sandbox an admin command talks to, from its parsed options (flag, environment or default). */
export function adminTarget(command: Command): SandboxTarget {
  const options = command.opts<AdminCommandOptions>();
  const source = command.getOptionValueSource('url');
  return {
    url: options.url ?? DEFAULT_SANDBOX_URL,
    source: options.url === undefined ? 'default' : source === 'env' ? 'env' : 'flag',
    adminToken: options.adminToken,
    workspace: options.workspace,
  };
}
