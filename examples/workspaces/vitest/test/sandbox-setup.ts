import { startSandbox } from 'deposit-sandbox';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const sandbox = await startSandbox({ clock: 'manual' });
  project.provide('sandboxUrl', sandbox.url);
  return () => sandbox.close();
}
