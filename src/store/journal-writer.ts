import { fdatasync, write } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { encodeRecord, frameRecord, splitRecords } from './journal-record.js';

/**
 * One record to append: the line of a group commit's `changes` (journal-record.ts) at `position`
 * of the open file `fd`, then fdatasync when `sync`; resolves with the line's length in bytes.
 */
interface Append {
  fd: number;
  /** What the record holds: a store's changes, or the entries of the workspaces' journal. */
  changes: readonly unknown[];
  position: number;
  sync: boolean;
  resolve: (bytes: number) => void;
  reject: (error: NodeJS.ErrnoException) => void;
}

/** A record's failure, as the worker answers it: its index in the batch and the error's fields. */
type Failure = [index: number, error: { code?: string; errno?: number; syscall?: string; message: string }];

/** Numbers per record in a batch's `meta`: fd, file position, sync (1 or 0). */
const META_FIELDS = 3;

/**
 * The worker: for each batch, takes the records' JSON texts apart (`splitRecords`), frames each
 * (`frameRecord`: the same functions as the event loop's, from their own source text), writes it
 * (positional, retried until whole), fdatasyncs where asked, and answers each line's length and
 * which records failed (null when none did). A batch travels as one JSON text of every record's
 * changes and one typed array of the numbers that place them (`meta`): the event loop makes that
 * text with one `JSON.stringify` call, and the splitting and framing (UTF-8 encoding, CRC-32,
 * header) are the thread's. Measured when this was built (`bench/journal-writes.js`, 64 journals
 * of one change a record against one journal of 64 changes), the event loop paid 1.70 times the
 * single journal's cost per change when each record was framed here, 1.30 times after (see
 * docs/data-folder.md). Workspaces now share one journal (workspaces-journal.ts), so a batch here
 * is mostly the default sandbox's record and theirs. Started from this string, so the
 * bundle needs no second file; `import()` works whether Node runs it as CommonJS or
 * (`--input-type=module` in the inherited flags) as a module, and messages wait in the port until
 * it listens.
 */
const WORKER_SOURCE = `
const splitRecords = (${splitRecords.toString()});
const frameRecord = (${frameRecord.toString()});
Promise.all([import('node:worker_threads'), import('node:fs'), import('node:zlib')]).then(([{ parentPort }, { writeSync, fdatasyncSync }, { crc32 }]) => {
  parentPort.on('message', ({ id, json, meta }) => {
    const texts = splitRecords(json);
    const lengths = new Float64Array(texts.length);
    let failures = null;
    if (texts.length * ${META_FIELDS} !== meta.length) {
      // A batch that does not come apart into its records is not written at all: each is refused.
      const error = { code: 'EJOURNALBATCH', message: 'the journal writer found ' + texts.length + ' records in a batch of ' + meta.length / ${META_FIELDS} + '; nothing of it was written' };
      parentPort.postMessage({ id, failures: Array.from({ length: meta.length / ${META_FIELDS} }, (_, i) => [i, error]), lengths });
      return;
    }
    for (let i = 0; i < texts.length; i++) {
      const [fd, position, sync] = meta.subarray(i * ${META_FIELDS}, (i + 1) * ${META_FIELDS});
      try {
        const line = frameRecord(texts[i], crc32);
        let done = 0;
        while (done < line.length) done += writeSync(fd, line, done, line.length - done, position + done);
        if (sync) fdatasyncSync(fd);
        lengths[i] = line.length;
      } catch (error) {
        (failures ??= []).push([i, { code: error.code, errno: error.errno, syscall: error.syscall, message: error.message }]);
      }
    }
    parentPort.postMessage({ id, failures, lengths }, [lengths.buffer]);
  });
});
`;

/**
 * Appends journal records off the event loop, for every journal of the process (the default
 * sandbox and each workspace) at once. One write is under way at a time; the records asked for
 * while it is (or in one turn) leave together once it is done (group commit across journals):
 *
 * - **One record** (one sandbox at work, the usual case): one `fs.write` in Node's thread pool.
 *   Handing a record to the pool costs less than a message to a thread that runs JavaScript
 *   (measured in a loop, one 7 KB write each, two passes: 43 and 56 against 90 and 96 µs of
 *   CPU; loading the sandbox side by side, four runs, 2 to 16% more creates per second). The
 *   pool also serves file reads and DNS lookups; a frozen disk holds only one of its threads.
 * - **Several records** (busy workspaces, each with its own journal): one message to the writer
 *   thread, which writes them one after another and answers in one message. A batch costs two
 *   wake-ups between threads however many journals it wrote, where one pool job per record cost
 *   two each. Busy workspaces whose records each left on their own cost a pool job or a message
 *   per record; waiting for the write under way makes their batches larger.
 *
 * A slow or frozen disk stalls only the pool thread or the writer thread, never the event loop.
 * Records of one journal never overtake each other: its store sends the next only once the one
 * under way has returned. The writer thread starts on the first message; neither way keeps the
 * process alive once nothing is being written.
 */
export class JournalWriter {
  #worker: Worker | undefined;
  #next: Append[] = [];
  #scheduled = false;
  #batch = 0;
  readonly #sent = new Map<number, Append[]>();
  /** Whether a record is being written in Node's thread pool. */
  #pooled = false;

  /**
   * Writes the record of a group commit's `changes` (journal-record.ts) at `position` of `fd`,
   * then fdatasync when `sync`; resolves with the record's length in bytes, rejects with the
   * system error. The changes are turned into JSON when the record leaves (in this turn, or once
   * the write under way is done): rows are never changed in place (table.ts), so that is the JSON
   * of this moment.
   */
  append(fd: number, changes: readonly unknown[], position: number, sync: boolean): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#next.push({ fd, changes, position, sync, resolve, reject });
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
    if (appends.length === 0) return;
    // One write under way at a time, in the pool or at the writer thread: what is asked for
    // meanwhile leaves together when it is done (group commit across journals), so busy
    // workspaces cost one pool job or one message per write, not one per turn of the event loop.
    if (this.#pooled || this.#sent.size > 0) return;
    this.#next = [];
    const [only] = appends;
    if (only && appends.length === 1) {
      this.#writeInPool(only);
      return;
    }
    const meta = new Float64Array(appends.length * META_FIELDS);
    appends.forEach(({ fd, position, sync }, i) => {
      const at = i * META_FIELDS;
      meta[at] = fd;
      meta[at + 1] = position;
      meta[at + 2] = sync ? 1 : 0;
    });
    // One JSON text for the whole batch: the thread takes it apart (splitRecords).
    const json = JSON.stringify(appends.map((append) => append.changes));
    const id = ++this.#batch;
    this.#sent.set(id, appends);
    const worker = this.#start();
    worker.ref();
    worker.postMessage({ id, json, meta }, [meta.buffer]);
  }

  /** Frames and writes one record with `fs.write` (retried until whole, like the writer thread), then fdatasync when asked. */
  #writeInPool(append: Append): void {
    this.#pooled = true;
    const { fd, position, sync } = append;
    const line = encodeRecord(append.changes);
    const done = (error: NodeJS.ErrnoException | null): void => {
      this.#pooled = false;
      if (error) append.reject(error);
      else append.resolve(line.length);
      // The records that waited for this write (#send).
      if (!this.#scheduled) this.#send();
    };
    const from = (offset: number): void =>
      write(fd, line, offset, line.length - offset, position + offset, (error, written) => {
        if (error) done(error);
        else if (offset + written < line.length) from(offset + written);
        else if (sync) fdatasync(fd, done);
        else done(null);
      });
    from(0);
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'deposit-sandbox journal writer' });
    worker.on('message', ({ id, failures, lengths }: { id: number; failures: Failure[] | null; lengths: Float64Array }) => {
      const appends = this.#sent.get(id) ?? [];
      this.#sent.delete(id);
      if (this.#sent.size === 0) worker.unref();
      const failed = new Map(failures ?? []);
      appends.forEach((append, i) => {
        const error = failed.get(i);
        if (error) append.reject(Object.assign(new Error(error.message), error));
        else append.resolve(lengths[i] ?? 0);
      });
      // The records that waited for this batch (#send).
      if (!this.#scheduled) this.#send();
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
    // The records that waited for the lost batch go to a new writer thread.
    if (!this.#scheduled) this.#send();
  }
}

/** The writer of this process: every journal appends through it. */
export const journalWriter = new JournalWriter();
