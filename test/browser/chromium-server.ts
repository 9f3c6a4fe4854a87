/**
 * vitest globalSetup of the browser project: one Chromium for every browser test file, started
 * once per run instead of once per file. Each file connects to it (launchBrowser() in browser.ts)
 * and works in its own contexts; closing its connection leaves the server to the next file.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { sessionCpu } from '../../scripts/lib/sandbox-process.js';
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
  // Chromium keeps its single-instance socket in a folder of TMPDIR, which a killed browser
  // leaves behind: it gets a folder of its own, removed after the kill.
  const temp = mkdtempSync(join(tmpdir(), 'deposit-sandbox-chromium-'));
  const server = await chromium.launchServer({ ...LAUNCH, env: { ...process.env, TMPDIR: temp } }).catch((error: unknown) => {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    // npm test's stage table counts the CPU of the processes it waits for. Chromium's zygotes and
    // the renderers they forked are not among them once the browser process ends (they are
    // reparented to init), so their CPU is read here and handed to the table
    // (TEST_DETACHED_CPU_FILE, scripts/test-all.js). kill(), not close(): a browser closing
    // gracefully may still wait for some of them, and that CPU would be counted twice.
    const pid = server.process().pid;
    const file = process.env['TEST_DETACHED_CPU_FILE'];
    if (file && pid !== undefined) appendFileSync(file, `${sessionCpu(pid).toFixed(2)} Chromium's zygotes and renderers\n`);
    await server.kill();
    rmSync(temp, { recursive: true, force: true });
  };
}
