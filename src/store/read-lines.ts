import { open } from 'node:fs/promises';

/**
 * Called for each line: its bytes without the `\n` (valid only during the call), the byte
 * offset of its first byte, and whether a `\n` ended it (false only for a last line cut
 * short). Return false to stop reading.
 */
export type LineVisitor = (bytes: Buffer, offset: number, complete: boolean) => boolean | void;

const CHUNK = 1 << 20;

/**
 * Reads a file line by line in 1 MiB chunks, so a large file never sits in memory whole.
 * Visits nothing for an empty file; rejects with ENOENT like `open` for a missing one.
 * Resolves with the file's size in bytes (as read).
 */
export async function readLines(path: string, visit: LineVisitor, chunkSize = CHUNK): Promise<number> {
  const handle = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    let carryOffset = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkSize);
      const { bytesRead } = await handle.read(chunk, 0, chunkSize, null);
      if (bytesRead === 0) break;
      const data = carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        if (visit(data.subarray(start, nl), carryOffset + start, true) === false) return carryOffset + nl + 1;
        start = nl + 1;
      }
      carryOffset += start;
      // Copy the remainder so the chunk it lives in can be freed.
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.length > 0) visit(carry, carryOffset, false);
    return carryOffset + carry.length;
  } finally {
    await handle.close();
  }
}
