// test-records.ts: whole protocol records (a Session, a ChatMessage) for the web app's unit tests,
// each test naming only the fields it is about. One place to follow the shared schemas when they
// grow a field, instead of a copy per test file. Not part of the app: only *.test.ts import it.
import type { ChatMessage, Session } from '@tether/shared';

/** An idle desk PTY session of claude's, created and updated at 0, but for `fields`. */
export function testSession(fields: Partial<Session> = {}): Session {
  return {
    id: '00000000-0000-4000-8000-000000000000',
    machineId: null,
    title: 'x',
    cwd: '/x',
    launchKind: 'pty',
    agent: 'claude',
    status: 'idle',
    agentSessionId: null,
    model: null,
    permissionMode: 'default',
    controller: null,
    deskAttached: false,
    failureReason: null,
    exitCode: null,
    pendingCount: 0,
    lastSeq: 0,
    createdAt: 0,
    updatedAt: 0,
    endedAt: null,
    ...fields,
  };
}

/** The assistant's text message number `seq` (id m<seq>, created at seq) of one session, but for `fields`. */
export function testMessage(fields: Partial<ChatMessage> & { seq: number }): ChatMessage {
  const { seq } = fields;
  return {
    id: `m${seq}`,
    sessionId: '00000000-0000-4000-8000-000000000001',
    role: 'assistant',
    content: [{ type: 'text', text: `message ${seq}` }],
    createdAt: seq,
    sidechain: false,
    agentId: null,
    promptId: null,
    agentSessionId: null,
    ...fields,
  };
}
