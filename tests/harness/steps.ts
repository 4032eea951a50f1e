// steps.ts: a long journey's steps, said only when it fails. A browser journey that runs out of time
// fails with "timed out" and nothing else; with this, the failure prints each step it reached, when
// (seconds since the test began) and the box's load then, so the step that hung, or the load that
// slowed them all, is named. Nothing is printed while the test passes.
import { loadavg } from 'node:os';
import { onTestFailed } from 'vitest';

/** Call inside a test; returns `step(name)` to mark each stage as it starts. */
export function stepLog(test: string): (step: string) => void {
  const started = performance.now();
  const steps: string[] = [];
  onTestFailed(() => {
    console.error(`${test}: the steps it reached (s since it began, load average)\n  ${steps.join('\n  ')}`);
  });
  return (step) => {
    steps.push(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)}  ${loadavg()[0]!.toFixed(1).padStart(5)}  ${step}`);
  };
}
