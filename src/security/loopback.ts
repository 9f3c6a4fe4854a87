import { isIP } from 'node:net';

/**
 * True when `host` (a --host value, a URL hostname or a Host header's name part) can only
 * be reached from this machine: `localhost`, `*.localhost`, 127.0.0.0/8, `::1` (any
 * spelling, brackets allowed) and IPv4-mapped 127.x addresses.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const version = isIP(name);
  if (version === 4) return name.startsWith('127.');
  if (version === 6) {
    const canonical = new URL(`http://[${name}]/`).hostname;
    return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
  }
  return false;
}
