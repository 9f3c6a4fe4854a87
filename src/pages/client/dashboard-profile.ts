import type { AdminAnswer } from '../../admin/admin-api.js';
import type { DashboardApi } from './dashboard-api.js';
import type { DashboardDom } from './dashboard-dom.js';

/** GET /_sandbox/profile: the provider profile this workspace follows and where it comes from. */
export type ProfileAnswer = AdminAnswer<'/profile', 'GET'>;

/**
 * The provider profile in force, named in the dashboard's header ("Profile md5-colon", its title
 * saying whether it is the server's or the workspace's own), read again on every poll and
 * before the New trade form signs, so a profile set with PUT /_sandbox/profile shows, and signs,
 * from the next request on.
 */
export function dashboardProfile(dom: DashboardDom, api: DashboardApi) {
  const { h, byTestId, t } = dom;
  const name = h('b', { testid: 'profile-name' }, '…');
  const shown = h('span', { class: 'profile', testid: 'profile' }, `${t('header.profile')} `, name);
  // The shell is rendered without data (no admin token): the script adds the profile beside the workspace.
  byTestId('workspace-form').after(shown);
  let last = '';

  /** Reads the profile in force and shows its name; resolves with it. */
  async function load(): Promise<ProfileAnswer> {
    const answer = await api.call('GET', '/profile');
    const key = `${answer.profile.name}\n${answer.source}`;
    if (key !== last) {
      last = key;
      name.textContent = answer.profile.name;
      shown.title = t(answer.source === 'workspace' ? 'header.profileFrom.workspace' : 'header.profileFrom.server');
      shown.dataset['source'] = answer.source;
    }
    return answer;
  }

  return { load };
}

export type DashboardProfile = ReturnType<typeof dashboardProfile>;
