import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationReport } from '../../src/report/report-schema.js';
import { reportJunit, reportMarkdown } from '../../src/report/report-formats.js';
import { errorOf, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

// GET /_sandbox/report?format=junit|markdown: what a CI step fetches with curl from a sandbox
// that still runs (a service container is stopped only after the job's steps).

let t: TestSandbox;
beforeAll(async () => {
  t = await makeSandbox();
  // One mistake to report: a create with a wrong token.
  expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'not-the-token' })).status).toBe(401);
});
afterAll(() => t.close());

describe('GET /_sandbox/report?format=', () => {
  it('junit: the JUnit XML `deposit-sandbox report --format junit` writes, with the mistake as a failed case', async () => {
    const json = (await (await t.app.request('/_sandbox/report')).json()) as IntegrationReport;
    const res = await t.app.request('/_sandbox/report?format=junit');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
    const xml = await res.text();
    expect(xml).toBe(reportJunit(json));
    expect(xml).toMatch(/<failure [^>]*type="integration_mistake"/);
  });

  it('markdown: the Markdown of the CLI, and fail_on marks unhandled coverage rows as failures', async () => {
    const json = (await (await t.app.request('/_sandbox/report')).json()) as IntegrationReport;
    const md = await t.app.request('/_sandbox/report?format=markdown');
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=UTF-8');
    expect(await md.text()).toBe(reportMarkdown(json));
    const strict = await (await t.app.request('/_sandbox/report?format=junit&fail_on=not-handled')).text();
    expect(strict).toBe(reportJunit(json, 'not-handled'));
    expect(strict).not.toBe(reportJunit(json));
  });

  it('refuses a format it does not know with 422 and the ones it does', async () => {
    const res = await t.app.request('/_sandbox/report?format=xml');
    expect(res.status).toBe(422);
    expect((await errorOf(res)).details[0]).toMatchObject({ field: 'format', message: expect.stringContaining('must be json, junit or markdown') });
  });
});
