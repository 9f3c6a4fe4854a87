import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitCommand } from './wait.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('deposit-sandbox wait', () => {
  it('names the --timeout it was given, however much time passed before the first attempt', async () => {
    // A loaded machine: every read of the clock is a millisecond later than the one before.
    const now = Date.now.bind(Date);
    let drift = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => now() + ++drift);
    // Port 4 is below the ephemeral range: nothing listens there, so every attempt is refused.
    const waiting = waitCommand({ url: 'http://127.0.0.1:4', source: 'flag' }, { timeout: '300ms' }, () => {
      throw new Error('a refused sandbox is not healthy');
    });
    await expect(waiting).rejects.toThrow(/^The sandbox at http:\/\/127\.0\.0\.1:4 was not healthy within 300ms \(\d+ attempts?\)\. Last problem: Could not reach/);
    await expect(waiting).rejects.toThrow('sandbox: http://127.0.0.1:4 (from --url)');
  });

  it('refuses a timeout that is not a positive duration before it asks anything', async () => {
    await expect(waitCommand({ url: 'http://127.0.0.1:4', source: 'flag' }, { timeout: '0s' })).rejects.toThrow('--timeout must be a duration');
  });
});
