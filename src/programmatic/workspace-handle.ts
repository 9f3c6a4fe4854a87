import { randomBytes } from 'node:crypto';
import { AdminClient } from '../admin-client/admin-client.js';
import type { CallbackEvent } from '../store/callback-records.js';
import type { Merchant } from '../merchants/fixtures.js';
import type { WorkspaceRegistry } from '../workspaces/workspace-registry.js';
import type { ScenarioSummary } from '../scenarios/describe-scenario.js';
import type { AddMerchantAnswer, ScenarioUploadAnswer } from '../admin/admin-answers.js';
import type { ForkAnswer } from '../admin/fork-routes.js';
import type { StateDocument } from '../sessions/state-document.js';
import type { NewMerchant } from '../merchants/added-merchants.js';
import { BUILTIN_PROFILE_NAMES } from '../profile/builtin-profile-names.js';
import type { Profile } from '../profile/profile-schema.js';
import { workspaceNameProblem } from '../workspaces/workspace-name.js';
import { workspaceBaseUrl } from '../workspaces/workspace-url.js';
import { CallbackWaiter, type CallbackMatch, type CallbackPredicate, type WaitForOptions } from './callback-waiter.js';

/** One workspace of a sandbox started with startSandbox(): `sandbox.workspace('worker-3')`. */
export interface WorkspaceHandle {
  readonly name: string;
  /** The workspace's base URL, e.g. http://127.0.0.1:41234/w/worker-3: use it as the provider's base_url. */
  readonly url: string;
  /** The admin API of this workspace only. */
  readonly admin: AdminClient;
  readonly callbacks: {
    /** As RunningSandbox.callbacks.waitFor, for this workspace's callbacks only. */
    waitFor(match: CallbackMatch | CallbackPredicate, options?: WaitForOptions): Promise<CallbackEvent>;
  };
  /** Adds a merchant to this workspace only; fields left out are generated. Answers its token and secret. */
  addMerchant(merchant?: NewMerchant): Promise<Merchant>;
  /** Sets this workspace's own scenarios (YAML, the format of a scenario file); they go in front of the shared ones. */
  setScenarios(yaml: string): Promise<ScenarioSummary[]>;
  /**
   * Sets this workspace's own provider profile (PUT /_sandbox/profile): a built-in's name
   * (`'md5-colon'`) or the text of a profile file (YAML or JSON); null goes back to the server's.
   * Resolves with the profile now in force, for signRequest() and signatureHeader(); an invalid
   * profile rejects with each problem's line and key, and changes nothing.
   *
   * @example
   *   const profile = await sandbox.workspace('provider-b').setProfile('hmac-sha512-base64');
   */
  setProfile(profile: string | null): Promise<Profile>;
  /**
   * Copies this workspace under a new name, in one step (POST /_sandbox/fork): a prepared
   * workspace forked per test. The callbacks it had pending are held in the copy unless
   * `{ callbacks: 'kept' }`. Resolves with the new workspace's handle.
   *
   * @example
   *   const test = await sandbox.workspace('prepared').fork(`test-${n}`);
   */
  fork(name: string, options?: ForkHelperOptions): Promise<WorkspaceHandle>;
  /** This workspace as a state document (GET /_sandbox/state): PUT it to /_sandbox/state to start from it again. */
  state(): Promise<StateDocument>;
  /** Removes the workspace and everything in it; its pending callbacks are never sent. */
  delete(): Promise<void>;
}

/** Options of fork(): what becomes of the callbacks the source had pending (default `paused`, held until POST /_sandbox/resume-callbacks). */
export interface ForkHelperOptions {
  callbacks?: 'paused' | 'kept';
}

export interface WorkspaceHandleContext {
  url: string;
  workspaces: WorkspaceRegistry;
  adminToken: string | undefined;
  /** Waiters to stop when the sandbox closes. */
  waiters: Set<CallbackWaiter>;
}

/** A handle on workspace `name` (a new unique name when left out); the workspace itself is created on first use. */
export function workspaceHandle(context: WorkspaceHandleContext, name: string = `ws-${randomBytes(4).toString('hex')}`): WorkspaceHandle {
  const problem = workspaceNameProblem(name);
  if (problem !== undefined) throw new Error(problem.replace(' in the path', ''));
  const url = workspaceBaseUrl(context.url, name);
  const admin = new AdminClient({ url, ...(context.adminToken !== undefined ? { adminToken: context.adminToken } : {}) });
  let waiter: Promise<CallbackWaiter> | undefined;
  const waiterFor = () =>
    (waiter ??= (async () => {
      const opened = await context.workspaces.open(name);
      if (!opened.ok) throw new Error(opened.message);
      const created = new CallbackWaiter(opened.sandbox);
      context.waiters.add(created);
      return created;
    })());
  return {
    name,
    url,
    admin,
    callbacks: { waitFor: async (match, options) => (await waiterFor()).waitFor(match, options) },
    addMerchant: async (merchant = {}) => (await admin.request<AddMerchantAnswer>('POST', '/merchants', merchant)).merchant,
    setScenarios: async (yaml) => (await admin.request<ScenarioUploadAnswer>('PUT', '/scenarios', yaml)).scenarios,
    setProfile: async (profile) => {
      if (profile === null) return (await admin.request<{ profile: Profile }>('DELETE', '/profile')).profile;
      // A built-in's name is a profile file that extends it and changes nothing.
      const text = (BUILTIN_PROFILE_NAMES as readonly string[]).includes(profile) ? `name: ${profile}\nextends: ${profile}\n` : profile;
      return (await admin.request<{ profile: Profile }>('PUT', '/profile', text)).profile;
    },
    fork: async (to, options = {}) => {
      const forked = await admin.request<ForkAnswer>('POST', '/fork', { to, callbacks: options.callbacks ?? 'paused' });
      return workspaceHandle(context, forked.workspace);
    },
    state: () => admin.request<StateDocument>('GET', '/state'),
    delete: async () => {
      const created = waiter === undefined ? undefined : await waiter.catch(() => undefined);
      created?.closeAll(`Workspace ${name} was removed while waitFor was waiting for a callback.`);
      waiter = undefined;
      await admin.request('DELETE', '');
    },
  };
}
