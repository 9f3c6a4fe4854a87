/** The path of a request as sent (percent-escapes kept), without query or fragment. */
export function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf(':') + 3);
  if (start === -1) return '/';
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 63 || code === 35) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

/** A path of `/w/<name>/...`: the raw name, and the rest as the workspace's routes see it. */
export interface WorkspacePath {
  name: string;
  rest: string;
}

/** `/w/<name>/rest` split into its raw name and the rest ('/' when none); undefined for other paths. */
export function splitWorkspacePath(path: string): WorkspacePath | undefined {
  if (!path.startsWith('/w/')) return undefined;
  const slash = path.indexOf('/', 3);
  return slash === -1 ? { name: path.slice(3), rest: '/' } : { name: path.slice(3, slash), rest: path.slice(slash) };
}
