/** The JUnit writer: its output validates against the common schema, escapes what it must, and the schema does refuse bad files. */
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../src/junit/junit-xml.js';
import { junitErrors } from '../junit-schema.js';

describe('junitXml', () => {
  it('writes passing, failing, skipped and noted cases that validate against test/junit.xsd', async () => {
    const xml = junitXml(
      [
        {
          name: 'suite <one> & "two"',
          properties: { seed: '42', url: 'http://127.0.0.1:3000/cb?a=1&b=2' },
          cases: [
            { classname: 'a.b', name: 'passes' },
            { classname: 'a.b', name: 'fails', failure: { message: 'credited 100 twice: "quoted" <tag>', type: 'credited_twice', details: 'line 1\nline 2 -> 200 \u0001 control' } },
            { classname: 'a.b', name: 'skipped', skipped: 'needs the probe' },
            { classname: 'a.b', name: 'warns', output: 'warning: answer 401' },
          ],
        },
        { name: 'empty', cases: [] },
      ],
      'all',
    );
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<testsuites name="all" tests="4" failures="1" errors="0">');
    expect(xml).toContain('<testsuite name="suite &lt;one&gt; &amp; &quot;two&quot;" tests="4" failures="1" errors="0" skipped="1">');
    expect(xml).toContain('message="credited 100 twice: &quot;quoted&quot; &lt;tag&gt;"');
    expect(xml).toContain('line 2 -&gt; 200 \ufffd control</failure>');
    expect(xml).not.toContain('\u0001');
  });

  it('the schema refuses a file CI tools would not read (so the check above can fail)', async () => {
    expect(await junitErrors('<testsuites><testsuite name="x"><testcase/></testsuite></testsuites>')).not.toEqual([]);
    expect(await junitErrors('<testsuites><testcase name="x"/></testsuites>')).not.toEqual([]);
  });
});
