import { describe, expect, it } from 'vitest';
import { acpPrompt } from './prompt.ts';

const ALL = { image: true, embeddedContext: true };

describe('acpPrompt', () => {
  it('text alone is one text block', () => {
    expect(acpPrompt('hello', ALL)).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('files first, as ACP blocks: an image, a text file as text, a PDF as a resource, then the text', () => {
    const blocks = acpPrompt(
      [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '- a' }, title: 'notes.txt' },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'a b.pdf' },
        { type: 'text', text: 'describe' },
      ],
      ALL,
    );
    expect(blocks).toEqual([
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'text', text: 'notes.txt:\n- a' },
      { type: 'resource', resource: { uri: 'tether-attachment:///3/a%20b.pdf', mimeType: 'application/pdf', blob: 'JVBE' } },
      { type: 'text', text: 'describe' },
    ]);
  });

  it('an agent without image or embedded-context support gets text it can take', () => {
    const blocks = acpPrompt(
      [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '- a' }, title: 'notes.txt' },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'x.pdf' },
      ],
      { image: false, embeddedContext: false },
    );
    expect(blocks.map((b) => b.type)).toEqual(['text', 'text', 'text']);
    expect(blocks[1]).toEqual({ type: 'text', text: 'notes.txt:\n- a' });
  });
});
