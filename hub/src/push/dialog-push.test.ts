// A dialog request's notification: it says claude asks and names the dialog, opens the session,
// and carries no Allow/Deny buttons (a dialog is answered by one of its options, in the app).
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
  it('says Claude asks, names the dialog and opens the session', () => {
    expect(describeRequestPush(request, null)).toEqual({
      title: 'A session: Claude asks',
      body: 'New MCP server found in this project: probe',
      url: `/sessions/${request.sessionId}`,
      tag: `request:${request.id}`,
      sessionId: request.sessionId,
      kind: 'dialog',
    });
  });

  it('has only an Open button and mints no answer tokens', () => {
    const tokens = createActionTokens();
    const message = withRequestActions({
      message: describeRequestPush(request, null),
      namespace: 'alpha',
      request,
      target: { namespace: 'alpha', endpoint: 'https://push.example.test/x', p256dh: 'k', auth: 'a', createdAt: 1 },
      tokens,
    });
    expect(message.request).toEqual({ namespace: 'alpha', id: request.id, actions: [{ action: 'open', title: 'Open' }] });
  });

  it('is not sent for a dialog opened at the desk; every other request is pushed', () => {
    expect(wantsPush(request)).toBe(true);
    expect(wantsPush({ ...request, toolInput: { ...request.toolInput, openedAtDesk: true } })).toBe(false);
    expect(wantsPush({ ...request, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls', openedAtDesk: true } })).toBe(true);
  });
});
