import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Debian's Chromium (never a downloaded one); DEPOSIT_SANDBOX_CHROMIUM points elsewhere. */
export const CHROMIUM = process.env['DEPOSIT_SANDBOX_CHROMIUM'] || '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** How every browser test starts Chromium: headless, no sandbox (root in CI), nothing in the background. */
export const LAUNCH: LaunchOptions = {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  timeout: 60_000,
};
