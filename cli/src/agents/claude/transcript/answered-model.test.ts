import { describe, expect, it } from 'vitest';
import { createAnsweredModelReader } from './answered-model.ts';

const NOW = Date.parse('2026-11-25T08:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const assistant = (o: { model: string; timestamp?: string; isSidechain?: boolean }) =>
  JSON.stringify({ type: 'assistant', isSidechain: o.isSidechain ?? false, timestamp: o.timestamp ?? at(1_000), message: { role: 'assistant', model: o.model, content: [{ type: 'text', text: 'ok' }] } });
const modelAttachment = (modelId: string) =>
  JSON.stringify({ type: 'attachment', isSidechain: false, timestamp: at(1_000), attachment: { type: 'model', identity: { modelId, marketingName: 'Sonnet 5.5' } } });

describe('the model answering a claude session, from its transcript', () => {
  const reader = () => createAnsweredModelReader({ now: () => NOW });

  it('an assistant line names the model that answered (every version)', () => {
    expect(reader().take(assistant({ model: 'claude-sonnet-5' }))).toBe('claude-sonnet-5');
  });

  it("2.1.33x's model attachment names it at the turn's start", () => {
    expect(reader().take(modelAttachment('claude-sonnet-5-5'))).toBe('claude-sonnet-5-5');
  });

  it("claude's <synthetic> filler, a subagent's line and other lines say nothing", () => {
    const r = reader();
    expect(r.take(assistant({ model: '<synthetic>' }))).toBeNull();
    expect(r.take(assistant({ model: 'claude-haiku-4-5', isSidechain: true }))).toBeNull();
    expect(r.take(JSON.stringify({ type: 'user', timestamp: at(1_000), message: { role: 'user', content: 'the assistant said claude-opus' } }))).toBeNull();
    expect(r.take(JSON.stringify({ type: 'attachment', timestamp: at(1_000), attachment: { type: 'skill_listing', modelId: 'x' } }))).toBeNull();
    expect(r.take('{"type":"assistant", broken')).toBeNull();
  });

  it('history written before the reader was made does not count (a resume with another model)', () => {
    const r = reader();
    expect(r.take(assistant({ model: 'claude-opus-5-5', timestamp: at(-60_000) }))).toBeNull();
    expect(r.take(assistant({ model: 'claude-opus-5-5', timestamp: 'not a time' }))).toBeNull();
    // A few seconds of clock slack: the same machine writes both.
    expect(r.take(assistant({ model: 'claude-opus-5-5', timestamp: at(-2_000) }))).toBe('claude-opus-5-5');
  });
});
