/** The URL of an address, with an IPv6 host in brackets: formatUrl('::1', 4242) is http://[::1]:4242. */
export function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
