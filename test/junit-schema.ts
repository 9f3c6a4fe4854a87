import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

const XSD = readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8');

/**
 * Validates a JUnit XML document against test/junit.xsd with libxml2's xmllint (compiled to
 * WebAssembly: the same checks as `xmllint --noout --schema test/junit.xsd file.xml`).
 * Answers the errors, none when it is valid.
 */
export async function junitErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: XSD }] });
  return result.errors.map((error) => error.rawMessage);
}
