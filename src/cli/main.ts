import { createProgram } from './program.js';

createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`deposit-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
