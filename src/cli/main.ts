import { unsetBlankEnvironment } from '../config/blank-environment.js';
import { createProgram } from './program.js';

// `PORT=` or `DEPOSIT_SANDBOX_SEED=` (empty) means unset, as a flag not given.
unsetBlankEnvironment();
createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`deposit-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    // A profile that cannot be used (ProfileError, told by its name: importing it here would load
    // the YAML reader on every command's start) exits 2, so a script tells it from a sandbox that failed while running.
    process.exitCode = error instanceof Error && error.name === 'ProfileError' ? 2 : 1;
  });
