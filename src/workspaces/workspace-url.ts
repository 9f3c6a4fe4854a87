import { DEFAULT_WORKSPACE, workspaceNameProblem } from './workspace-name.js';

/** The base URL of workspace `name` on the sandbox at `url`: the unprefixed URL for the default one, else `<url>/w/<name>`. */
export function workspaceBaseUrl(url: string, name: string): string {
  return name === DEFAULT_WORKSPACE ? url : `${url.replace(/\/+$/, '')}/w/${name}`;
}

/** The base URL of `workspace` on the sandbox at `url` (the CLI's --workspace); throws when the name is not allowed. */
export function workspaceUrl(url: string, workspace: string | undefined): string {
  if (workspace === undefined || workspace === DEFAULT_WORKSPACE) return url;
  const problem = workspaceNameProblem(workspace);
  if (problem !== undefined) throw new Error(`--workspace: ${problem.replace(' in the path', '')}`);
  return workspaceBaseUrl(url, workspace);
}
