// runner-deliveries.ts: a runner with a fresh idle session and a web tab on the hub under test, and
// the prompts the hub hands that runner (prompt:deliver), in order: what schedule and guard tests read.
import type { Socket } from 'socket.io-client';
import type { hubUnderTest } from './hub-under-test.ts';

export type Delivered = { promptId: string; text: string };

export async function runnerWithDeliveries(live: ReturnType<typeof hubUnderTest>): Promise<{ runner: Socket; web: Socket; sid: string; delivered: Delivered[] }> {
  const { runner, web, sid } = await live.runnerWithTab({ status: 'idle' });
  const delivered: Delivered[] = [];
  runner.on('prompt:deliver', (d: Delivered) => delivered.push(d));
  return { runner, web, sid, delivered };
}
