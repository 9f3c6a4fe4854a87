/** One test case of a JUnit XML report. */
export interface JUnitCase {
  classname: string;
  name: string;
  /** Present when the case failed: a one-line message and the details. */
  failure?: { message: string; type: string; details: string };
  /** Present when the case was not run, with why. */
  skipped?: string;
  /** Text shown with a passing case (e.g. a warning). */
  output?: string;
}

export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
  /** Shown by CI tools as the suite's properties (seed, URL...). */
  properties?: Record<string, string>;
}

// Characters XML 1.0 cannot hold at all (control characters other than tab, LF, CR; lone surrogates).
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML cannot hold
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text for an attribute or element: escaped, and stripped of what XML cannot hold. */
export function xmlText(value: string): string {
  return value.replace(INVALID, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * A JUnit XML document (`<testsuites>` of `<testsuite>`s), as CI tools read it (the common
 * schema of test/junit.xsd). No time or host attributes: the same results give the same bytes.
 */
export function junitXml(suites: JUnitSuite[], name: string): string {
  const count = (pick: (c: JUnitCase) => unknown, cases: JUnitCase[]) => cases.filter(pick).length;
  const all = suites.flatMap((s) => s.cases);
  let xml = '<?xml version="1.0" encoding="UTF-8"?>\n';
  xml += `<testsuites name="${xmlText(name)}" tests="${all.length}" failures="${count((c) => c.failure, all)}" errors="0">\n`;
  for (const suite of suites) {
    xml += `  <testsuite name="${xmlText(suite.name)}" tests="${suite.cases.length}" failures="${count((c) => c.failure, suite.cases)}" errors="0" skipped="${count((c) => c.skipped !== undefined, suite.cases)}">\n`;
    const properties = Object.entries(suite.properties ?? {});
    if (properties.length > 0) {
      xml += '    <properties>\n';
      for (const [key, value] of properties) xml += `      <property name="${xmlText(key)}" value="${xmlText(value)}"/>\n`;
      xml += '    </properties>\n';
    }
    for (const c of suite.cases) {
      const open = `    <testcase classname="${xmlText(c.classname)}" name="${xmlText(c.name)}"`;
      const body =
        (c.skipped !== undefined ? `      <skipped>${xmlText(c.skipped)}</skipped>\n` : '') +
        (c.failure ? `      <failure message="${xmlText(c.failure.message)}" type="${xmlText(c.failure.type)}">${xmlText(c.failure.details)}</failure>\n` : '') +
        (c.output ? `      <system-out>${xmlText(c.output)}</system-out>\n` : '');
      xml += body ? `${open}>\n${body}    </testcase>\n` : `${open}/>\n`;
    }
    xml += '  </testsuite>\n';
  }
  return `${xml}</testsuites>\n`;
}
