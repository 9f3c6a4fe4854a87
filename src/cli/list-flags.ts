import type { Command } from 'commander';

/** One flag of one command, as `--help` shows it. */
export interface CliFlag {
  /** The subcommand (`serve`, `wait`, ...), or '' for the program itself (`--version`, `--help`). */
  command: string;
  /** As written in the help: `-p, --port <port>`. */
  flags: string;
  /** `--port`; undefined for a flag with a short form only. */
  long: string | undefined;
  /** The environment variable read when the flag is absent, if any. */
  env: string | undefined;
  description: string;
}

/**
 * Every flag of the program and of each of its commands, read from commander's own objects
 * (the options `--help` prints, `--help` included), so docs generated from it cannot miss one.
 * Used by `npm run docs` (the flag table of docs/cli.md) and by the docs tests.
 */
export function listFlags(program: Command): CliFlag[] {
  const help = program.createHelp();
  return [program, ...program.commands].flatMap((command) =>
    help.visibleOptions(command).map((option) => ({
      command: command === program ? '' : command.name(),
      flags: option.flags,
      long: option.long,
      env: option.envVar,
      description: option.description,
    })),
  );
}
