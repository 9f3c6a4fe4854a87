import type { Store } from '../store/store.js';
import { quietLogger } from '../log/logger.js';
import { parseProfile } from './load-profile.js';
import { ProfileError } from './profile-error.js';
import type { Profile } from './profile-schema.js';

/** The meta row that keeps a workspace's own profile text. */
const ROW = 'profile';

/** The name a workspace's uploaded profile goes by in messages, in place of a file. */
export const profileUploadName = (workspace: string): string => (workspace === 'default' ? 'PUT /_sandbox/profile' : `PUT /w/${workspace}/_sandbox/profile`);

/** Where a sandbox's profile comes from: the server's (serve --profile) or its own upload. */
export type ProfileSource = 'server' | 'workspace';

export type ProfileUpload = { ok: true; profile: Profile } | { ok: false; error: ProfileError };

/** What a sandbox needs to hold a profile of its own. */
export interface ProfileSeat {
  readonly store: Store;
  readonly workspace: string;
  profile: Profile;
  profileSource: ProfileSource;
  readonly shared: { readonly profile: Profile };
}

/**
 * The profile a sandbox follows: its own upload (kept in the store), else the server's. An
 * upload that no longer loads (a later version's schema refuses it) is set aside with a line,
 * as uploaded scenarios are.
 */
export function restoreProfile(store: Store, serverProfile: Profile, warn: (line: string) => void = quietLogger.warn): { profile: Profile; source: ProfileSource } {
  const row = store.meta.get(ROW);
  if (typeof row?.['text'] !== 'string' || typeof row['file'] !== 'string') return { profile: serverProfile, source: 'server' };
  try {
    return { profile: parseProfile(row['text'], row['file']), source: 'workspace' };
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    warn(`the provider profile uploaded to this workspace was set aside; it follows the server's profile "${serverProfile.name}":\n  ${error.message}`);
    return { profile: serverProfile, source: 'server' };
  }
}

/**
 * Replaces a sandbox's own profile with the one in `text` (YAML or JSON), or goes back to the
 * server's (null). Checked first, saved next, then in force: an invalid profile or a failed
 * write (a WriteFailedError, rejected) leaves the sandbox's profile as it was. A trade keeps
 * the data it was created with; callbacks are signed with the profile in force when sent.
 */
export async function setWorkspaceProfile(seat: ProfileSeat, text: string | null): Promise<ProfileUpload> {
  if (text === null) {
    seat.store.meta.delete(ROW);
    await seat.store.commit();
    seat.profile = seat.shared.profile;
    seat.profileSource = 'server';
    return { ok: true, profile: seat.profile };
  }
  const file = profileUploadName(seat.workspace);
  let profile: Profile;
  try {
    profile = parseProfile(text, file);
  } catch (error) {
    if (error instanceof ProfileError) return { ok: false, error };
    throw error;
  }
  seat.store.meta.put({ id: ROW, file, text });
  await seat.store.commit();
  seat.profile = profile;
  seat.profileSource = 'workspace';
  return { ok: true, profile };
}
