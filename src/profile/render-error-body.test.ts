import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../http/errors.js';
import { checkErrorBody } from './check-error-body.js';
import { loadProfile } from './load-profile.js';
import { renderErrorBody } from './render-error-body.js';

const detailsArbitrary = fc.array(fc.record({ field: fc.string(), message: fc.string({ unit: 'binary' }) }), { maxLength: 3 });

describe('renderErrorBody', () => {
  it('replaces each placeholder with the JSON encoding of its value', () => {
    const values = { status: 422, code: 'validation_failed', message: 'say "kopecks"\nplease', details: [{ field: 'amount_cents', message: 'not an integer' }] };
    const body = renderErrorBody('{"ok":false,"s":{{status}},"c":{{ code }},"m":{{message}},"d":{{details}}}', values);
    expect(JSON.parse(body)).toEqual({ ok: false, s: 422, c: 'validation_failed', m: 'say "kopecks"\nplease', d: values.details });
  });

  it("under the sandbox profile, renders today's envelope byte for byte (an answer without the signature or allowed extras)", () => {
    const template = loadProfile('sandbox').errors.body;
    fc.assert(
      fc.property(fc.constantFrom(401, 404, 422), fc.string(), fc.string({ unit: 'binary' }), detailsArbitrary, (status, code, message, details) => {
        const today = JSON.stringify(new SandboxError(status, code, message, { details }).toJSON());
        expect(renderErrorBody(template, { status, code, message, details })).toBe(today);
      }),
      { seed: 46, numRuns: 200 },
    );
  });
});

describe('checkErrorBody', () => {
  it('accepts every built-in template and other JSON', () => {
    expect(checkErrorBody(loadProfile('sandbox').errors.body)).toEqual([]);
    expect(checkErrorBody('{"success":false,"error":{"code":{{code}},"text":{{message}}}}')).toEqual([]);
    expect(checkErrorBody('[{{status}}, {{details}}]')).toEqual([]);
  });

  it('names a placeholder that is none, with the closest one', () => {
    expect(checkErrorBody('{"m":{{mesage}},"x":{{when}}}')).toEqual([
      { placeholder: '{{mesage}}', message: '{{mesage}} is no placeholder; did you mean {{message}}? The placeholders are {{status}}, {{code}}, {{message}}, {{details}}' },
      { placeholder: '{{when}}', message: '{{when}} is no placeholder. The placeholders are {{status}}, {{code}}, {{message}}, {{details}}' },
    ]);
  });

  it('refuses a template that is not JSON once filled in, saying a quoted placeholder is one quote too many', () => {
    const [problem] = checkErrorBody('{"message":"{{message}}"}');
    expect(problem?.message).toMatch(
      /^is not JSON once filled in with a sample error \(.+\)\. A placeholder is replaced by a JSON value, quotes included: write \{\{message\}\}, not "\{\{message\}\}"\.$/,
    );
    expect(checkErrorBody('{"code":{{code}}')).toHaveLength(1);
    expect(checkErrorBody('')).toHaveLength(1);
  });
});
