import { Worker } from 'node:worker_threads';

/** One record to append: its bytes at `position` of the open file `fd`, then fdatasync when `sync`. */
interface Append {
  fd: number;
  line: Uint8Array;
  position: number;
  sync: boolean;
  resolve: () => void;
  reject: (error: NodeJS.ErrnoException) => void;
}

/** What the worker answers per record: null, or the error's fields. */
type Outcome = null | { code?: string; errno?: number; syscall?: string; message: string };

/**
 * The worker: for each batch, writes every record (positional, retried until whole), fdatasyncs
 * where asked, and answers one outcome per record. Started from this string, so the bundle needs
 * no second file; `import()` works whether Node runs it as CommonJS or (`--input-type=module`
 * in the inherited flags) as a module, and messages wait in the port until it listens.
 */
const WORKER_SOURCE = `
Promise.all([import('node:worker_threads'), import('node:fs')]).then(([{ parentPort }, { writeSync, fdatasyncSync }]) => {
  parentPort.on('message', ({ id, bytes, items }) => {
    const outcomes = items.map(({ fd, offset, length, position, sync }) => {
      try {
        let done = 0;
        while (done < length) done += writeSync(fd, bytes, offset + done, length - done, position + done);
        if (sync) fdatasyncSync(fd);
        return null;
      } catch (error) {
        return { code: error.code, errno: error.errno, syscall: error.syscall, message: error.message };
      }
    });
    parentPort.postMessage({ id, outcomes });
  });
});
`;

/**
 * Appends journal records off the event loop, for every journal of the process (the default
 * sandbox and each workspace) at once: the records of one turn go to a worker thread in one
 * message, which writes them one after another and answers in one message.
 *
 * Why not one `fs.write` per record (a job each in Node's thread pool): with many busy
 * workspaces, each turn ends with one record per workspace, and every pool job costs two
 * wake-ups between threads, more CPU than the write itself. Here a turn costs two, however many
 * journals it wrote. A slow or frozen disk still stalls only the worker, never the event loop.
 *
 * The worker starts on the first append and does not keep the process alive.
 */
export class JournalWriter {
  #worker: Worker | undefined;
  #next: Append[] = [];
  #scheduled = false;
  #batch = 0;
  readonly #sent = new Map<number, Append[]>();

  /** Writes `line` at `position` of `fd` (then fdatasync when `sync`); rejects with the system error. */
  append(fd: number, line: Uint8Array, position: number, sync: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#next.push({ fd, line, position, sync, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // After the other stores that flush in this turn have added theirs.
        queueMicrotask(() => this.#send());
      }
    });
  }

  #send(): void {
    this.#scheduled = false;
    const appends = this.#next;
    this.#next = [];
    let total = 0;
    for (const append of appends) total += append.line.length;
    // One buffer of its own (never Node's shared pool), handed over to the worker without a copy.
    const bytes = new Uint8Array(total);
    const items = [];
    let offset = 0;
    for (const { fd, line, position, sync } of appends) {
      bytes.set(line, offset);
      items.push({ fd, offset, length: line.length, position, sync });
      offset += line.length;
    }
    const id = ++this.#batch;
    this.#sent.set(id, appends);
    const worker = this.#start();
    worker.ref();
    worker.postMessage({ id, bytes, items }, [bytes.buffer]);
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'deposit-sandbox journal writer' });
    worker.on('message', ({ id, outcomes }: { id: number; outcomes: Outcome[] }) => {
      const appends = this.#sent.get(id) ?? [];
      this.#sent.delete(id);
      if (this.#sent.size === 0) worker.unref();
      appends.forEach((append, i) => {
        const outcome = outcomes[i];
        if (outcome) append.reject(Object.assign(new Error(outcome.message), outcome));
        else append.resolve();
      });
    });
    worker.on('error', (error) => this.#fail(error));
    worker.on('exit', (code) => this.#fail(new Error(`the journal writer stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  /** The worker failed or stopped: every record it had is refused, and the next append starts a new one. */
  #fail(error: Error): void {
    this.#worker = undefined;
    for (const appends of this.#sent.values()) for (const append of appends) append.reject(error);
    this.#sent.clear();
  }
}

/** The writer of this process: every journal appends through it. */
export const journalWriter = new JournalWriter();
