import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describeHolder, holderGone, readHolder, stopHolder } from './lock-holder.js';
import { DataFolderRefusedError } from './data-folder-refused-error.js';
import { journalName, listGenerations } from './journal-generations.js';

/** The sub-folder of a data folder that holds its workspaces (src/workspaces/ keeps them there). */
export const WORKSPACES_NAME = 'workspaces';

/**
 * The sub-folder of `workspaces/` that holds the workspaces' journal (workspaces-journal.ts).
 * `@` is in no workspace name, so a workspace folder can never be it or a file in it.
 */
export const WORKSPACES_JOURNAL_NAME = '@journal';

/** Whether this process holds the lock on a folder. */
type HeldHere = (folder: string) => boolean;

/** Whether `folder` is held, by this process or by a live process whose lock.json is there. */
function inUse(folder: string, heldHere: HeldHere): { held: boolean; holder: ReturnType<typeof readHolder> } {
  const found = readHolder(folder);
  return { held: heldHere(folder) || (found !== undefined && holderGone(found.holder, found.age) === undefined), holder: found };
}

/**
 * One lock covers a data folder and its workspaces. `--data <data>/workspaces/<name>` while
 * `<data>` is held is refused: that folder is a workspace of the running server, which writes it.
 */
export function refuseWorkspaceOfHeldFolder(folder: string, heldHere: HeldHere): void {
  const parent = dirname(folder);
  if (basename(parent) !== WORKSPACES_NAME) return;
  const root = dirname(parent);
  const name = basename(folder);
  const { held, holder: found } = inUse(root, heldHere);
  if (!held) return;
  const holder = found?.holder;
  const url = holder?.url ? `${holder.url.replace(/\/+$/, '')}/w/${name}` : `/w/${name}`;
  throw new DataFolderRefusedError(
    `The data folder ${folder} is the workspace "${name}" of the data folder ${root}, which is in use by another deposit-sandbox (${describeHolder(holder)}). ` +
      `A second process on it would overwrite that workspace's trades. Use the workspace on the running server instead: ${url}. ` +
      'Or start this one with --data <another folder> or --in-memory (startSandbox(): data or inMemory).',
  );
}

/**
 * `--data <data>/workspaces/<name>` while `<data>` is not held, but its workspaces' journal
 * (workspaces-journal.ts) is there: the workspace's latest changes may be in it rather than in its
 * db.json, and a process that opens the folder alone would miss them. Refused, saying how to fold
 * them in. (A clean stop of the server leaves no workspaces' journal.)
 */
export function refuseWorkspaceWithJournal(folder: string): void {
  const parent = dirname(folder);
  if (basename(parent) !== WORKSPACES_NAME) return;
  const journal = newestJournal(parent);
  if (journal === undefined) return;
  const root = dirname(parent);
  const name = basename(folder);
  throw new DataFolderRefusedError(
    `The data folder ${folder} is the workspace "${name}" of the data folder ${root}, whose workspaces' journal (${journal}) may hold changes of it not yet in ${join(folder, 'db.json')}: ` +
      `opened on its own, it would miss them. Nothing was changed. Start deposit-sandbox once with --data ${root} and stop it (a clean stop folds every workspace into its db.json and removes the journal), ` +
      `then start this one; or use /w/${name} on that server.`,
  );
}

/** The newest file of the workspaces' journal in `workspaces` (in its own folder, or where an earlier layout wrote it), if any. */
function newestJournal(workspaces: string): string | undefined {
  for (const folder of [join(workspaces, WORKSPACES_JOURNAL_NAME), workspaces]) {
    const newest = listGenerations(folder)
      .map((generation) => join(folder, journalName(generation)))
      .filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true)
      .at(-1);
    if (newest !== undefined) return newest;
  }
  return undefined;
}

/** And the other way round: `<data>` while a process holds one of `<data>/workspaces/<name>` directly. */
export function refuseWorkspaceHeldDirectly(folder: string, heldHere: HeldHere): void {
  const workspaces = join(folder, WORKSPACES_NAME);
  let names: string[];
  try {
    names = readdirSync(workspaces);
  } catch {
    return;
  }
  for (const name of names) {
    const { held, holder: found } = inUse(join(workspaces, name), heldHere);
    if (!held) continue;
    const holder = found?.holder;
    const stop = stopHolder(holder);
    throw new DataFolderRefusedError(
      `The data folder ${folder} holds the workspace folder ${join(workspaces, name)}, which another deposit-sandbox uses as its own data folder (${describeHolder(holder)}). ` +
        `Both would write the workspace "${name}". ${stop.charAt(0).toUpperCase()}${stop.slice(1)} first, then start this one and use /w/${name} on it; ` +
        'or start this one with --data <another folder> or --in-memory (startSandbox(): data or inMemory).',
    );
  }
}

/**
 * A file (not a folder) named `workspaces` in the data folder: the server could not keep a single
 * workspace. Refused at start-up, saying what to do, rather than failing at the first `/w/<name>`.
 */
export function refuseWorkspacesFile(folder: string): void {
  const path = join(folder, WORKSPACES_NAME);
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined || stat.isDirectory()) return;
  throw new DataFolderRefusedError(
    `${path} is a file, but the sandbox keeps its workspaces (/w/<name>) in a folder of that name (${path}/<name>/), so it does not start. ` +
      `Nothing was changed. Move the file away (mv ${path} ${path}.bak) and start again, or start with --data <another folder>.`,
  );
}
