import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CREATOR, type HarSource, sessionHar } from './session-har.js';

/**
 * Writes a workspace's recorded session as HAR to `<folder>/<workspace>.har` (serve --record-dir),
 * never over an earlier file: a second one of the same name is `<workspace>-2.har`, and so on.
 * Resolves with the file written.
 */
export async function writeSessionFile(folder: string, source: HarSource & { readonly workspace: string }): Promise<string> {
  const har = await sessionHar(source, CREATOR);
  await mkdir(folder, { recursive: true });
  let file = join(folder, `${source.workspace}.har`);
  for (let n = 2; existsSync(file); n++) file = join(folder, `${source.workspace}-${n}.har`);
  await writeFile(file, `${JSON.stringify(har, null, 2)}\n`, { flag: 'wx' });
  return file;
}
