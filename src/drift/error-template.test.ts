import { describe, expect, it } from 'vitest';
import { DEFAULT_ERROR_BODY } from '../profile/default-error-body.js';
import { parseProfile } from '../profile/load-profile.js';
import { renderErrorBody } from '../profile/render-error-body.js';
import { jsonShape } from './json-shape.js';
import { errorCodePath, inferErrorTemplate } from './error-template.js';

const shape = (body: unknown) => [...jsonShape(body)].map(([path, node]) => `${path}:${node.type}`);

describe('errorCodePath', () => {
  it('finds where a template puts the code', () => {
    expect(errorCodePath(DEFAULT_ERROR_BODY)).toBe('error.code');
    expect(errorCodePath('{"ok":false,"error":{{code}},"text":{{message}}}')).toBe('error');
    expect(errorCodePath('{"text":{{message}}}')).toBeUndefined();
  });
});

describe('inferErrorTemplate', () => {
  it("gives back the sandbox's own template from one of its 422s", () => {
    const body = { error: { status: 422, code: 'validation_failed', message: 'order is required.', details: [{ field: 'order', message: 'order is required.' }] } };
    expect(inferErrorTemplate(body, 422)).toBe(DEFAULT_ERROR_BODY);
  });

  it("makes a template that renders a provider's shape, which a profile file accepts", () => {
    const body = { success: false, result: null, error: { error_code: 'AMOUNT_INVALID', description: 'The amount is not valid.', errors: [{ name: 'amount_cents' }] }, http_status: 422 };
    const template = inferErrorTemplate(body, 422);
    expect(template).toBe('{"success":false,"result":null,"error":{"error_code":{{code}},"description":{{message}},"errors":{{details}}},"http_status":{{status}}}');
    const rendered = JSON.parse(renderErrorBody(template ?? '', { status: 404, code: 'not_found', message: 'No such trade.', details: [{ field: 'uuid', message: 'unknown' }] }));
    expect(shape(rendered).filter((entry) => !entry.startsWith('error.errors[]'))).toEqual(shape(body).filter((entry) => !entry.startsWith('error.errors[]')));
    expect(parseProfile(`name: p\nextends: sandbox\nerrors:\n  body: '${template}'\n`).errors.body).toBe(template);
  });

  it('takes the longest sentence for the message when no key names one, and refuses what is not an object', () => {
    expect(inferErrorTemplate({ code: 'E1', hint: 'short', explanation: 'A much longer sentence here.' }, 400)).toBe('{"code":{{code}},"hint":"short","explanation":{{message}}}');
    expect(inferErrorTemplate(['x'], 422)).toBeUndefined();
    expect(inferErrorTemplate('Bad request', 400)).toBeUndefined();
  });
});
