import { DEFAULT_WORKSPACE, workspaceNameProblem } from './workspace-name.js';

/** The base URL of `workspace` on the sandbox at `url` (the CLI's --workspace); throws when the name is not allowed. */
export function workspaceUrl(url: string, workspace: string | undefined): string {
  if (workspace === undefined || workspace === DEFAULT_WORKSPACE) return url;
  const problem = workspaceNameProblem(workspace);
  if (problem !== undefined) throw new Error(`--workspace: ${problem.replace(' in the path', '')}`);
  return `${url.replace(/\/+$/, '')}/w/${workspace}`;
}
