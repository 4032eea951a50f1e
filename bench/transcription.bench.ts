// transcription.bench.ts: what a transcription endpoint gone wrong makes the hub hold (issue 38,
// item 4). A real `tether hub` process whose TETHER_TRANSCRIPTION_URL is the fake endpoint in this
// process (tests/fixtures/fake-transcription), scripted to answer every dictation with ANSWER_MB of
// valid JSON, streamed. Two dictations are posted one after the other; the hub's RSS (VmRSS) is read
// idle (before), sampled every SAMPLE_MS while they run (peak), and after they have settled.
//
//   transcription_oversize_rss_before_mb · _peak_mb · _after_mb   (the hub's, MB = 10^6 bytes)
//   env TRANSCRIPTION_BENCH_ANSWER_MB (default 50)
import { rmSync } from 'node:fs';
import { makeWav, startFakeTranscription } from '../tests/fixtures/fake-transcription/fake-transcription.ts';
import { makeTempHome, startHubProcess } from '../tests/harness/hub.ts';
import { rssMb } from './load/proc.ts';
import type { Measurement } from './run.ts';

const ANSWER_MB = Number(process.env.TRANSCRIPTION_BENCH_ANSWER_MB ?? '50');
const DICTATIONS = 2;
/** Start-up allocations (JIT, GC) settle before the idle read, and the answers' garbage after. */
const SETTLE_MS = 2_000;
const SAMPLE_MS = 20;
const round = (n: number) => Math.round(n * 10) / 10;

export async function run(): Promise<Measurement[]> {
  const fake = startFakeTranscription({ model: 'whisper-bench' });
  fake.answerOversize(ANSWER_MB * 1024 * 1024);
  const home = makeTempHome('tether-transcription-bench-');
  const hub = await startHubProcess({ home, env: { TETHER_TRANSCRIPTION_URL: fake.url, TETHER_TRANSCRIPTION_MODEL: 'whisper-bench' } });
  try {
    const pid = hub.child.pid!;
    await Bun.sleep(SETTLE_MS);
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), SAMPLE_MS);
    const statuses: number[] = [];
    const errors: string[] = [];
    try {
      for (let i = 0; i < DICTATIONS; i++) {
        const res = await fetch(`${hub.url}/api/transcriptions?durationMs=1000`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/octet-stream' },
          body: makeWav({ seconds: 1 }) as Uint8Array<ArrayBuffer>,
        });
        statuses.push(res.status);
        // A hub that passes the answer on sends its 50 MB text to the phone: read it as the phone would.
        const body = (await res.json()) as { error?: string; text?: string };
        errors.push(body.error ?? `text of ${body.text?.length ?? 0} characters`);
      }
      await Bun.sleep(SETTLE_MS);
    } finally {
      clearInterval(sampler);
    }
    const after = rssMb(pid);
    peak = Math.max(peak, after);
    const base = { dictations: DICTATIONS, answer_mb: ANSWER_MB, statuses: statuses.join(','), answered: errors[0], endpoint_sent_mb: round(fake.oversize.sentBytes / 1e6) };
    return [
      { name: 'transcription_oversize_rss_before_mb', value: round(before), unit: 'MB', ...base },
      { name: 'transcription_oversize_rss_peak_mb', value: round(peak), unit: 'MB', ...base },
      { name: 'transcription_oversize_rss_after_mb', value: round(after), unit: 'MB', ...base },
    ];
  } finally {
    await hub.stop();
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
