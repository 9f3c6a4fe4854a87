/** The unprefixed paths, and /w/default: the workspace every server has. */
export const DEFAULT_WORKSPACE = 'default';

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export const WORKSPACE_NAME_RULE =
  'A workspace name is 1 to 64 characters, each a letter A-Z or a-z, a digit 0-9, "_", "." or "-" (but not "." or ".." alone), e.g. /w/worker-3/api/v1/trades/deposit/create.';

/** Why `name` (a raw path segment) cannot name a workspace, or undefined when it can. */
export function workspaceNameProblem(name: string): string | undefined {
  if (NAME.test(name) && name !== '.' && name !== '..') return undefined;
  const shown = name.length > 80 ? `${name.slice(0, 80)}...` : name;
  const why = name === '' ? 'is empty' : name.length > 64 && NAME.test(name.slice(0, 64)) ? `is ${name.length} characters long` : 'is not allowed';
  return `The workspace name ${JSON.stringify(shown)} in the path ${why}. ${WORKSPACE_NAME_RULE}`;
}
