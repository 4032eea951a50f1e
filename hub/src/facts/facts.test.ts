// facts.test.ts: the fact bus delivers each fact to its subscribers in the order they subscribed,
// keeps a throwing subscriber from the publisher and from the next subscriber, and stops
// delivering to one that unsubscribed.
import { describe, expect, it } from 'vitest';
import type { Machine } from '@tether/shared';
import { createFactBus } from './facts.ts';

const machine: Machine = { id: 'm1', name: 'box', os: 'linux', user: 'me', home: '/home/me', shell: false, agents: ['claude'], capabilities: {}, online: true, lastSeenAt: 1, outside: false };

describe('fact bus', () => {
  it('delivers in subscription order, only to the subscribers of that fact', () => {
    const errors: string[] = [];
    const facts = createFactBus({ onError: (what) => errors.push(what) });
    const heard: string[] = [];
    facts.on('machine.updated', ({ machine: m }) => heard.push(`rooms ${m.id}`));
    facts.on('machine.updated', ({ namespace }) => heard.push(`push ${namespace}`));
    facts.on('terminal.started', () => heard.push('viewers'));
    facts.publish('machine.updated', { namespace: 'alpha', machine });
    expect(heard).toEqual(['rooms m1', 'push alpha']);
    expect(errors).toEqual([]);
  });

  it('reports a subscriber that throws, and the next one still hears the fact', () => {
    const errors: string[] = [];
    const facts = createFactBus({ onError: (what, error) => errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`) });
    const heard: string[] = [];
    facts.on('terminal.started', () => {
      throw new Error('boom');
    });
    facts.on('terminal.started', ({ sessionId }) => heard.push(sessionId));
    expect(() => facts.publish('terminal.started', { namespace: 'alpha', sessionId: 's1', hubUrl: '' })).not.toThrow();
    expect(heard).toEqual(['s1']);
    expect(errors).toEqual(['fact terminal.started: boom']);
  });

  it('stops delivering to a subscriber that unsubscribed', () => {
    const facts = createFactBus({ onError: () => {} });
    const heard: string[] = [];
    const stop = facts.on('terminal.started', ({ sessionId }) => heard.push(sessionId));
    facts.publish('terminal.started', { namespace: 'alpha', sessionId: 's1', hubUrl: '' });
    stop();
    facts.publish('terminal.started', { namespace: 'alpha', sessionId: 's2', hubUrl: '' });
    expect(heard).toEqual(['s1']);
  });
});
