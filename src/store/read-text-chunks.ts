import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;

/**
 * Reads a UTF-8 text file in chunks of whole lines: `visit` gets each chunk as one string
 * ending with a `\n` (the last one may not), so callers can split and parse it without a
 * string per line. Return false to stop. Rejects with ENOENT for a missing file.
 */
export async function readTextChunks(path: string, visit: (text: string) => boolean | void, chunkSize = CHUNK): Promise<void> {
  const handle = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkSize);
      const { bytesRead } = await handle.read(chunk, 0, chunkSize, null);
      if (bytesRead === 0) break;
      const data = carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const end = data.lastIndexOf(10) + 1;
      if (end > 0 && visit(data.toString('utf8', 0, end)) === false) return;
      carry = Buffer.from(data.subarray(end));
    }
    if (carry.length > 0) visit(carry.toString('utf8'));
  } finally {
    await handle.close();
  }
}
