// A dialog request's notification: it says the session's agent asks and names the dialog, opens the
// session, and carries one button per option, each minted with the answer that option gives.
import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { createActionTokens } from './action-tokens.ts';
import { describeRequestPush, wantsPush, withRequestActions } from './notifier.ts';

const request: PendingRequest = {
  id: '00000000-0000-4000-8000-0000000000d1',
  sessionId: '00000000-0000-4000-8000-0000000000d2',
  kind: 'dialog',
  toolName: 'Dialog',
  toolInput: {
    title: 'New MCP server found in this project: probe',
    text: ['New MCP server found in this project: probe'],
    options: [
      { key: '1', label: 'Use this MCP server' },
      { key: '2', label: 'Continue without using this MCP server' },
    ],
  },
  toolUseId: null,
  createdAt: 1,
};

describe('dialog push', () => {
  it('says the agent asks, names the dialog and opens the session', () => {
    expect(describeRequestPush(request, null)).toEqual({
      title: 'A session: The agent asks',
      body: 'New MCP server found in this project: probe',
      url: `/sessions/${request.sessionId}`,
      tag: `request:${request.id}`,
      sessionId: request.sessionId,
      kind: 'dialog',
    });
  });

  it('has a button per option, each with a token for that option\'s answer', () => {
    const tokens = createActionTokens();
    const message = withRequestActions({
      message: describeRequestPush(request, null),
      namespace: 'alpha',
      request,
      target: { namespace: 'alpha', endpoint: 'https://push.example.test/x', p256dh: 'k', auth: 'a', createdAt: 1, tokenId: 'tok_phone' },
      tokens,
    });
    expect(message.request?.actions).toEqual([
      { action: 'option-1', title: 'Use this MCP server' },
      { action: 'option-2', title: 'Continue without using this MCP server' },
    ]);
    expect(tokens.size).toBe(2);
    const redeemed = tokens.redeem({ namespace: 'alpha', requestId: request.id, choice: 'option-2', token: message.request!.tokens!['option-2']! });
    expect(redeemed.ok && redeemed.grant.answer).toEqual({ decision: 'allow', choice: '2' });
  });

  it('is not sent for a dialog opened at the desk; every other request is pushed', () => {
    expect(wantsPush(request)).toBe(true);
    expect(wantsPush({ ...request, toolInput: { ...request.toolInput, openedAtDesk: true } })).toBe(false);
    expect(wantsPush({ ...request, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls', openedAtDesk: true } })).toBe(true);
  });
});
