// A vitest reporter that appends one JSON line per finished test to the file named by
// TEST_PROGRESS_FILE while the run goes on, so a run stopped before its end (at the time bound
// of scripts/test-all.js) still shows every test that finished: toJunit() in suites.js turns the
// lines into JUnit. vitest's own JSON and JUnit reporters write only once the run has ended.
//   {"files": [...]}                                     the files the run will test
//   {"file", "name", "state", "ms", "error"?}            a test finished (passed, failed, skipped)
//   {"file", "done": true, "error"?}                     a file finished (error: it failed to load)
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

export default class ProgressReporter {
  #file = process.env.TEST_PROGRESS_FILE;
  #root = process.cwd();

  #write(line) {
    if (this.#file) appendFileSync(this.#file, `${JSON.stringify(line)}\n`);
  }

  #name(moduleId) {
    return relative(this.#root, moduleId);
  }

  onTestRunStart(specifications) {
    if (this.#file) {
      mkdirSync(dirname(this.#file), { recursive: true });
      writeFileSync(this.#file, '');
    }
    this.#write({ files: [...new Set(specifications.map((spec) => this.#name(spec.moduleId)))] });
  }

  onTestCaseResult(testCase) {
    const result = testCase.result();
    const error = result.errors?.[0]?.message;
    this.#write({
      file: this.#name(testCase.module.moduleId),
      name: testCase.fullName,
      state: result.state,
      ms: Math.round(testCase.diagnostic()?.duration ?? 0),
      ...(error ? { error } : {}),
    });
  }

  onTestModuleEnd(testModule) {
    const error = testModule.errors()[0]?.message;
    this.#write({ file: this.#name(testModule.moduleId), done: true, ...(error ? { error } : {}) });
  }
}
