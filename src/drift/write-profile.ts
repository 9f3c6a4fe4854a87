import { Document, isMap, isSeq, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { formatDuration, parseDuration } from '../clock/duration.js';
import { BUILTIN_PROFILE_NAMES, type BuiltinProfileName } from '../profile/builtin-profile-names.js';
import { loadProfile, parseProfile } from '../profile/load-profile.js';
import type { Profile } from '../profile/profile-schema.js';

/** The keys a drift run can learn from outside and write into a profile. */
export const ADOPTABLE_KEYS = ['requests.signature', 'requests.duplicate_order_names_trade', 'callbacks.signature', 'callbacks.sandbox_headers', 'errors.body'] as const;
export type AdoptableKey = (typeof ADOPTABLE_KEYS)[number];

/** One thing the target showed that a profile can say. */
export interface Adoption {
  key: AdoptableKey;
  value: unknown;
  /** The probe that showed it. */
  probe: string;
  /** What it showed, in words. */
  why: string;
}

/** What the file's header says besides the adoptions. */
export interface ProfileAbout {
  target: string;
  /** When the run was, as an ISO date. */
  date: string;
  /** What the target does otherwise that no profile key can say (a state's name, a field's format...). */
  notAdopted: readonly string[];
  /** What a run cannot see from outside. */
  unseen: readonly string[];
}

/** The keys a file is written with, section by section, in the order of the built-ins' files. */
const LAYOUT: ReadonlyArray<[section: 'requests' | 'callbacks' | 'errors' | 'states', keys: readonly string[]]> = [
  ['requests', ['signature', 'duplicate_order_names_trade']],
  ['callbacks', ['signature', 'acknowledge', 'retries', 'send_on', 'sandbox_headers']],
  ['errors', ['body']],
  ['states', ['intermediate']],
];

const isBuiltin = (name: string): name is BuiltinProfileName => (BUILTIN_PROFILE_NAMES as readonly string[]).includes(name);

/** A profile name from the target's host: `drift-test.provider.example`. */
export function profileNameFor(target: string): string {
  let host = 'target';
  try {
    host = new URL(target).host;
  } catch {
    // keep the default
  }
  return `drift-${host.replace(/[^A-Za-z0-9._-]+/g, '-')}`.slice(0, 64).replace(/[._-]+$/, '');
}

/** The profile with the adoptions applied (a copy: profiles are frozen). */
export function adoptedProfile(base: Profile, adoptions: readonly Adoption[]): Profile {
  const profile = structuredClone(base) as Profile;
  for (const adoption of adoptions) {
    const [section, key] = adoption.key.split('.') as [keyof Profile, string];
    (profile[section] as Record<string, unknown>)[key] = structuredClone(adoption.value);
  }
  return profile;
}

/**
 * The text of a profile file that adopts what the drift run found: the base profile (the
 * run's --profile) with each adoption applied and commented with the probe that showed it,
 * written as `extends:` a built-in and the keys that differ from it. The text is checked by
 * parsing it back: when `extends` cannot say it (a key the built-in has and the profile must
 * not), every key is written out instead.
 *
 * @example
 * writeProfile(loadProfile('sandbox'), 'sandbox', [{ key: 'callbacks.sandbox_headers', value: false, probe: 'callback.any_bank', why: 'the target sends no X-Sandbox-* header' }], about)
 * // '# Written by deposit-sandbox drift ...\nname: drift-...\nextends: sandbox\ncallbacks:\n  # callback.any_bank: ...\n  sandbox_headers: false\n'
 */
export function writeProfile(base: Profile, baseSource: string, adoptions: readonly Adoption[], about: ProfileAbout): string {
  const wanted = adoptedProfile(base, adoptions);
  const name = profileNameFor(about.target);
  const builtin = isBuiltin(baseSource) ? baseSource : (base.extends ?? 'sandbox');
  const short = render(wanted, name, builtin, baseSource, adoptions, about);
  if (sameChoices(parseProfile(short, 'drift profile'), wanted)) return short;
  return render(wanted, name, undefined, baseSource, adoptions, about);
}

function render(profile: Profile, name: string, builtin: BuiltinProfileName | undefined, baseSource: string, adoptions: readonly Adoption[], about: ProfileAbout): string {
  const parent = builtin ? loadProfile(builtin) : undefined;
  const adopted = new Map(adoptions.map((adoption) => [adoption.key as string, adoption]));
  const data: Record<string, unknown> = { name, ...(builtin ? { extends: builtin } : {}) };
  const notes = new Map<string, string>();
  for (const [section, keys] of LAYOUT) {
    const ours = profile[section] as Record<string, unknown>;
    const theirs = parent?.[section] as Record<string, unknown> | undefined;
    const written: Record<string, unknown> = {};
    for (const key of keys) {
      const path = `${section}.${key}`;
      const value = ours[key];
      const adoption = adopted.get(path);
      if (!adoption && theirs !== undefined && JSON.stringify(value) === JSON.stringify(theirs[key])) continue;
      if (value === undefined) continue;
      written[key] = key === 'retries' ? (value as number[]).map(duration) : value;
      notes.set(path, adoption ? `${adoption.probe}: ${adoption.why}` : `as ${baseSource} says`);
    }
    if (Object.keys(written).length > 0) data[section] = written;
  }
  const doc = new Document(data);
  doc.commentBefore = header(about, baseSource, adoptions.length);
  for (const [section] of LAYOUT) {
    const map = doc.get(section, true);
    if (!isMap(map)) continue;
    for (const pair of (map as YAMLMap).items as Pair<Scalar, unknown>[]) {
      const note = notes.get(`${section}.${String(pair.key.value)}`);
      if (note !== undefined) pair.key.commentBefore = ` ${note}`;
      if (isSeq(pair.value)) pair.value.flow = true;
    }
  }
  return doc.toString({ lineWidth: 0 });
}

function header(about: ProfileAbout, baseSource: string, adopted: number): string {
  const lines = [
    ` Written by deposit-sandbox drift against ${about.target} on ${about.date}, starting from the profile ${baseSource}.`,
    adopted === 0 ? ' The target showed nothing a profile can say otherwise.' : ` ${adopted} choice${adopted === 1 ? '' : 's'} adopted from the target, each commented with the probe that showed it.`,
    ' Check it: run drift again with --profile <this file>; what is left is listed below or in its report.',
  ];
  if (about.notAdopted.length > 0) lines.push('', ' Differences no profile key can say:', ...about.notAdopted.map((line) => ` - ${line}`));
  if (about.unseen.length > 0) lines.push('', ' Not seen from outside (kept as the base profile says):', ...about.unseen.map((line) => ` - ${line}`));
  return lines.join('\n');
}

/** A duration as a profile file writes it: "30s" when that reads back exactly, else milliseconds. */
function duration(ms: number): string | number {
  const text = formatDuration(ms);
  return parseDuration(text) === ms ? text : ms;
}

function sameChoices(a: Profile, b: Profile): boolean {
  const choices = (profile: Profile) => JSON.stringify([profile.requests, profile.callbacks, profile.errors, profile.states]);
  return choices(a) === choices(b);
}
