import { unsetBlankEnvironment } from '../config/blank-environment.js';
import { createProgram } from './program.js';

// `PORT=` or `DEPOSIT_SANDBOX_SEED=` (empty) means unset, as a flag not given.
unsetBlankEnvironment();
createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`deposit-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
