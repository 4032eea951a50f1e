import { describe, expect, it } from 'vitest';
import { recordingLink as fakeLink, sentRequest as requestOf } from '../../testing/recording-link.ts';
import { parseElicitationPayload } from '../../hooks/elicitation.ts';
import { createElicitations } from './elicitation.ts';
import { createRequestRegistry } from './registry.ts';

/** The Elicitation hook payload as claude 2.1.330 POSTed it (probe against the e2e fixture). */
const PAYLOAD = {
  session_id: '0a266980-188b-4d0b-800d-d04507269b66',
  transcript_path: '/tmp/x.jsonl',
  cwd: '/tmp/project',
  prompt_id: 'f2d8509c-4cee-416f-adab-955c009c1f7e',
  hook_event_name: 'Elicitation',
  mcp_server_name: 'elicit',
  message: 'Who is deploying, and where to?',
  mode: 'form',
  requested_schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Your name', minLength: 1 },
      region: { type: 'string', enum: ['eu-west', 'us-east'], enumNames: ['Europe', 'US'] },
    },
    required: ['name', 'region'],
  },
};

describe('elicitation hook payload', () => {
  it('reads claude’s payload into the request the phone shows', () => {
    const parsed = parseElicitationPayload(PAYLOAD);
    expect(parsed).toEqual({ kind: 'form', input: { serverName: 'elicit', message: PAYLOAD.message, requestedSchema: PAYLOAD.requested_schema } });
  });

  it('leaves URL mode and schemas outside MCP’s flat form to claude’s own dialog, saying why', () => {
    expect(parseElicitationPayload({ ...PAYLOAD, mode: 'url', url: 'https://x' })).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining('url') });
    const nested = { ...PAYLOAD, requested_schema: { type: 'object', properties: { a: { type: 'object' } } } };
    expect(parseElicitationPayload(nested)).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining('requestedSchema') });
  });
});

/** The form asked (claude waits on `signal`), its request sent to the hub. */
async function asked(signal = new AbortController().signal) {
  const link = fakeLink();
  const elicitations = createElicitations({ sessionId: () => 's1', link: () => link });
  const pending = elicitations.ask({ payload: PAYLOAD, signal });
  await expect.poll(() => link.sent.length).toBe(1);
  return { link, elicitations, pending };
}

describe('elicitations (first answer wins; never answered on the user’s behalf)', () => {
  it('turns a hub accept into the hook output with the content, and marks the session waiting meanwhile', async () => {
    const link = fakeLink();
    const waits: boolean[] = [];
    const requests = createRequestRegistry({ sessionId: () => 's1', link: () => link });
    requests.subscribe((change) => waits.push(change.kind === 'opened'));
    const elicitations = createElicitations({ sessionId: () => 's1', link: () => link, requests });
    const pending = elicitations.ask({ payload: PAYLOAD, signal: new AbortController().signal });
    await expect.poll(() => link.sent.length).toBe(1);
    const request = requestOf(link);
    expect(request).toMatchObject({ kind: 'elicitation', toolName: 'elicit', toolInput: { serverName: 'elicit' } });
    expect(elicitations.answered({ requestId: 'other', answer: { decision: 'deny' } })).toBe(false);
    expect(elicitations.answered({ requestId: request.id, answer: { decision: 'allow', elicitation: { action: 'accept', content: { name: 'Ada', region: 'us-east' } } } })).toBe(true);
    expect(await pending).toEqual({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { name: 'Ada', region: 'us-east' } } });
    expect(waits).toEqual([true, false]);
  });

  it('passes decline and cancel through without content', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { link, elicitations, pending } = await asked();
      elicitations.answered({ requestId: requestOf(link).id, answer: { decision: 'deny', elicitation: { action } } });
      expect(await pending).toEqual({ hookSpecificOutput: { hookEventName: 'Elicitation', action } });
    }
  });

  it('leaves claude’s own form ({}) when the hub cannot be asked or its answer does not fit the schema', async () => {
    const refused = createElicitations({ sessionId: () => 's1', link: () => fakeLink({ refuse: true }) });
    expect(await refused.ask({ payload: PAYLOAD, signal: new AbortController().signal })).toEqual({});
    const unlinked = createElicitations({ sessionId: () => 's1', link: () => null });
    expect(await unlinked.ask({ payload: PAYLOAD, signal: new AbortController().signal })).toEqual({});
    const { link, elicitations, pending } = await asked();
    elicitations.answered({ requestId: requestOf(link).id, answer: { decision: 'allow', elicitation: { action: 'accept', content: { name: 'Ada' } } } });
    expect(await pending).toEqual({});
  });

  it('Esc at the desk (a rejected call in the transcript) clears every phone as a desk answer', async () => {
    const { link, elicitations, pending } = await asked();
    elicitations.interrupted();
    expect(await pending).toEqual({});
    expect(link.sent[1]).toMatchObject({ event: 'approval:desk-answer', payload: { requestId: requestOf(link).id, answer: null } });
  });

  it('claude dropping the hook request clears every phone as a desk answer; an exit withdraws', async () => {
    const desk = new AbortController();
    const { link, pending } = await asked(desk.signal);
    desk.abort();
    expect(await pending).toEqual({});
    expect(link.sent.map((s) => s.event)).toEqual(['approval:request', 'approval:desk-answer']);
    expect(link.sent[1]!.payload).toMatchObject({ requestId: requestOf(link).id, answer: null });

    const gone = new AbortController();
    const { link: exitLink, elicitations: exiting, pending: waiting } = await asked(gone.signal);
    gone.abort();
    exiting.stop();
    expect(await waiting).toEqual({});
    expect(exitLink.sent.map((s) => s.event)).toEqual(['approval:request', 'approval:withdraw']);
  });
});

describe('a form an agent asks on its own (a headless agent’s request, not the hook)', () => {
  const input = parseElicitationPayload(PAYLOAD);
  if (input.kind !== 'form') throw new Error('the payload is a form');

  it('resolves with the answer that fits the form; a misfit, no hub or a refusing hub is null (the agent declines)', async () => {
    const link = fakeLink();
    const elicitations = createElicitations({ sessionId: () => 's1', link: () => link });
    const pending = elicitations.form({ input: input.input, signal: new AbortController().signal });
    await expect.poll(() => link.sent.length).toBe(1);
    expect(requestOf(link)).toMatchObject({ kind: 'elicitation', toolName: 'elicit', toolInput: input.input });
    elicitations.answered({ requestId: requestOf(link).id, answer: { decision: 'deny', elicitation: { action: 'cancel' } } });
    expect(await pending).toEqual({ action: 'cancel' });

    const misfit = elicitations.form({ input: input.input, signal: new AbortController().signal });
    await expect.poll(() => link.sent.length).toBe(2);
    elicitations.answered({ requestId: (link.sent[1]!.payload as { id: string }).id, answer: { decision: 'allow', elicitation: { action: 'accept', content: { name: 'Ada' } } } });
    expect(await misfit).toBeNull();
    expect(await createElicitations({ sessionId: () => 's1', link: () => null }).form({ input: input.input, signal: new AbortController().signal })).toBeNull();
    expect(await createElicitations({ sessionId: () => 's1', link: () => fakeLink({ refuse: true }) }).form({ input: input.input, signal: new AbortController().signal })).toBeNull();
  });

  it('the agent no longer waiting (the desk answered it) clears every phone', async () => {
    const link = fakeLink();
    const elicitations = createElicitations({ sessionId: () => 's1', link: () => link });
    const desk = new AbortController();
    const pending = elicitations.form({ input: input.input, signal: desk.signal });
    await expect.poll(() => link.sent.length).toBe(1);
    desk.abort();
    expect(await pending).toBeNull();
    expect(link.sent.map((s) => s.event)).toEqual(['approval:request', 'approval:desk-answer']);
  });
});
