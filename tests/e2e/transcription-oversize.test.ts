// transcription-oversize.test.ts: a transcription endpoint gone wrong cannot make `tether hub` read
// its answer whole (issue 38, item 4). A real hub process, TETHER_TRANSCRIPTION_URL pointing at the
// fake endpoint on 127.0.0.1 scripted to stream 50 MB of valid JSON: the phone gets a clear 502, the
// endpoint's stream is broken off before its end, and the same process answers on as before. Its
// memory around two such answers is a bench figure (bench/transcription.bench.ts), not asserted here.
import { rmSync } from 'node:fs';
import { expect, it, vi } from 'vitest';
import { makeWav, startFakeTranscription } from '../fixtures/fake-transcription/fake-transcription.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { makeTempHome, startHubProcess } from '../harness/hub.ts';

const defer = useCleanups();
const ANSWER_BYTES = 50 * 1024 * 1024;

it('a 50 MB answer stops at the cap with a clear 502, and the hub process stays up and transcribes the next', async () => {
  const fake = startFakeTranscription({ model: 'whisper-e2e' });
  defer(() => fake.stop());
  const home = makeTempHome();
  defer(() => rmSync(home, { recursive: true, force: true }));
  const hub = await startHubProcess({ home, env: { TETHER_TRANSCRIPTION_URL: fake.url, TETHER_TRANSCRIPTION_MODEL: 'whisper-e2e' } });
  defer(() => hub.stop());
  const dictate = () =>
    fetch(`${hub.url}/api/transcriptions?durationMs=500`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/octet-stream' },
      body: makeWav({ seconds: 0.5 }) as Uint8Array<ArrayBuffer>,
    });

  fake.answerOversize(ANSWER_BYTES);
  for (let i = 0; i < 2; i++) {
    const res = await dictate();
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ code: 'bad_gateway', error: 'the transcription service at 127.0.0.1 sent an answer over 64 KiB' });
  }
  await vi.waitFor(() => expect(fake.oversize.brokenOff).toBe(2));
  expect(fake.oversize.sentBytes).toBeLessThan(2 * ANSWER_BYTES);

  expect(hub.child.exitCode).toBeNull();
  expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
  fake.answerOversize(null);
  fake.script(['the hub is still here']);
  const next = await dictate();
  expect(next.status).toBe(200);
  expect(await next.json()).toEqual({ text: 'the hub is still here' });
  expect(hub.output()).not.toMatch(/aaaaaaaa/);
}, 60_000);
