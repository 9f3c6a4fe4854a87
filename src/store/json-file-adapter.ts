import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { JSONFile } from 'lowdb/node';
import type { StoreAdapter } from './adapter.js';

/**
 * The whole store as one JSON file (`<dir>/db.json`), written by lowdb's JSONFile
 * adapter: each write goes to a temp file that is renamed over the old one, so a crash
 * never leaves a half-written file.
 */
export class JsonFileAdapter implements StoreAdapter {
  readonly location: string;
  readonly #file: JSONFile<unknown>;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.location = join(dir, 'db.json');
    this.#file = new JSONFile<unknown>(this.location);
  }

  async read(): Promise<unknown> {
    return this.#file.read();
  }

  async write(_changes: unknown, snapshot: () => unknown): Promise<void> {
    await this.#file.write(snapshot());
  }
}
