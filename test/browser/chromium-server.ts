/**
 * vitest globalSetup of the browser project: one Chromium for every browser test file, started
 * once per run instead of once per file. Each file connects to it (launchBrowser() in browser.ts)
 * and works in its own contexts; closing its connection leaves the server to the next file.
 */
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { HAS_CHROMIUM, LAUNCH } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the shared Chromium, when there is one. */
    chromiumEndpoint: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!HAS_CHROMIUM) {
    project.provide('chromiumEndpoint', undefined);
    return undefined;
  }
  const server = await chromium.launchServer(LAUNCH);
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
