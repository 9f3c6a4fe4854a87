/**
 * test/small-journal-sandbox.mjs bundled once for a test file that starts it many times: the
 * script imports the tsc build (dist/index.js), whose few hundred modules each start would read
 * and compile, where a start of the CLI reads its bundle. rolldown bundles it here as the
 * package's build bundles dist/lib/ from dist/index.js (code split, so that a start compiles
 * what serving needs and nothing more), and JournalAdapter stays one class in the bundle, so the
 * script's patch reaches the server's stores.
 *
 * The bundle lies in a temporary folder two levels deep (`<folder>/dist/small-journal/`), as
 * dist/lib/ does in the package: the bundled modules find package.json, fixtures/, profiles/,
 * scenarios/ and dist/client/ by paths relative to their own file, which lead to links to the
 * repository's. The build in dist/ must be there (`npm run build`).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface SmallJournalBundle {
  /** The bundled script: `node <script> <data> <compactBytes>`, as test/small-journal-sandbox.mjs. */
  script: string;
  /** Removes the temporary folder (call in afterAll). */
  remove: () => void;
}

export async function bundleSmallJournal(): Promise<SmallJournalBundle> {
  const folder = mkdtempSync(join(tmpdir(), 'deposit-sandbox-small-journal-'));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    for (const name of ['package.json', 'fixtures', 'profiles', 'scenarios']) symlinkSync(join(ROOT, name), join(folder, name));
    mkdirSync(join(folder, 'dist'));
    symlinkSync(join(ROOT, 'dist', 'client'), join(folder, 'dist', 'client'));
    const out = join(folder, 'dist', 'small-journal');
    await build({
      input: { 'small-journal-sandbox': join(ROOT, 'test', 'small-journal-sandbox.mjs') },
      platform: 'node',
      logLevel: 'warn',
      output: { dir: out, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunk-[name]-[hash].mjs' },
    });
    return { script: join(out, 'small-journal-sandbox.mjs'), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
