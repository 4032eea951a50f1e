// answerer.ts: the approvals bench's phone, in a process of its own. It answers every approval of
// one session the moment it hears it and appends when it heard and when it answered (wall-clock ms,
// comparable across processes) to a file. A real phone is another device: answered from the bench's
// own process, an approval waited on whatever that process was doing (parsing the desk's screen,
// serving the fake model API), which is neither tether's time nor a phone's.
//
//   bun bench/phone/answerer.ts <hub url> <token> <session id> <file>   (prints "ready" once connected)
//
//   hub ─approval:requested─► answerer ─approval:answer {allow}─► hub ; file: {received, answered}
import { appendFileSync } from 'node:fs';
import { io } from 'socket.io-client';
import { PROTOCOL_VERSION, type PendingRequest } from '@tether/shared';
import { wallNow } from '../../cli/src/hooks/bench-timings.ts';

export type Answered = { received: number; answered: number };

const [url, token, sessionId, file] = process.argv.slice(2);
if (!url || !token || !sessionId || !file) {
  console.error('usage: answerer.ts <hub url> <token> <session id> <file>');
  process.exit(2);
}

const socket = io(`${url}/web`, {
  transports: ['websocket'],
  auth: { protocol: PROTOCOL_VERSION.major, client: 'web', token, device: 'bench phone' },
});
socket.on('approval:requested', (request: PendingRequest) => {
  if (request.sessionId !== sessionId) return;
  const received = wallNow();
  socket.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } }, () => {});
  const line: Answered = { received, answered: wallNow() };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
});
socket.on('connect', () => console.log('ready'));
socket.on('connect_error', (error) => console.error(`answerer: ${error.message}`));
