// startSandbox() (the package's entry, dist/lib/index.mjs: `npm test` builds first) in a worker thread of the test's
// process. The test's own thread stays free, so it can find out whether the sandbox still
// answers, and Worker.terminate() ends the sandbox even while its thread is stuck in a loop.
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from '../dist/lib/index.mjs';

const sandbox = await startSandbox(workerData);
parentPort.postMessage(sandbox.url);
