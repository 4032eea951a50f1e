// The dialog card's words: the lines between claude's title and its options, re-flowed into
// paragraphs for a phone (claude wrapped them to the desk's width); key hints under the options are left out.
import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { dialogInput, dialogParagraphs } from './dialog-card.tsx';

const SWITCH_MODEL = {
  title: 'Switch model?',
  text: [
    'Switch model?',
    'Your next response will be slower and use more tokens',
    '',
    'This conversation is cached for the current model. Switching to Sonnet 5.5 means the full',
    'history gets re-read.',
    '',
    '  1. Yes, switch to Sonnet 5.5',
    '  2. No, go back',
    '',
    'Enter to confirm · Esc to cancel',
  ],
  options: [
    { key: '1', label: 'Yes, switch to Sonnet 5.5' },
    { key: '2', label: 'No, go back' },
  ],
};

const request = (toolInput: Record<string, unknown>): PendingRequest => ({
  id: '00000000-0000-4000-8000-000000000001',
  sessionId: '00000000-0000-4000-8000-000000000002',
  kind: 'dialog',
  toolName: 'Dialog',
  toolInput,
  toolUseId: null,
  createdAt: 1,
});

describe('dialog card', () => {
  it('re-flows the words between the title and the options into paragraphs', () => {
    expect(dialogParagraphs(SWITCH_MODEL)).toEqual([
      'Your next response will be slower and use more tokens',
      'This conversation is cached for the current model. Switching to Sonnet 5.5 means the full history gets re-read.',
    ]);
  });

  it('stops at unnumbered options too', () => {
    const trust = { title: 'Accessing workspace:', text: ['Accessing workspace:', '', '/srv/app', '', '  No, exit', '  Yes, I trust this folder'], options: [{ key: '1', label: 'No, exit' }, { key: '2', label: 'Yes, I trust this folder' }] };
    expect(dialogParagraphs(trust)).toEqual(['/srv/app']);
  });

  it('leaves out the question shown as the title (headline), the box drawn inside, and numbered rows drawn wider', () => {
    const shell = {
      title: '? Shell  touch made.txt',
      text: ['? Shell  touch made.txt', '╭──────────╮', '│ touch made.txt │', '╰──────────╯', 'Allow execution of [Shell]?', '', '1.  Allow once', '2.  No'],
      options: [{ key: '1', label: 'Allow once' }, { key: '2', label: 'No' }],
      headline: 'Allow execution of [Shell]?',
      about: { kind: 'command' as const, text: 'touch made.txt' },
    };
    expect(dialogParagraphs(shell)).toEqual([]);
    const question = { title: 'Answer Questions', text: ['Answer Questions', '', 'Some context first.', '', 'Which one?', '', '1.  A', '2.  Enter a custom value'], options: [{ key: '1', label: 'A' }, { key: '2', label: 'Enter a custom value' }], headline: 'Which one?', freeText: { key: '2', maxChars: 600 } };
    expect(dialogParagraphs(question)).toEqual(['Some context first.']);
    const field = { title: 'Answer Questions', text: ['Answer Questions', '', 'Name it?', '', '> a name', '', 'Enter to submit'], options: [], headline: 'Name it?', freeText: { maxChars: 600 } };
    expect(dialogParagraphs(field)).toEqual([]);
  });

  it('reads only the strict dialog shape', () => {
    expect(dialogInput(request(SWITCH_MODEL))).toEqual(SWITCH_MODEL);
    expect(dialogInput(request({ title: 'x', text: [], options: [] }))).toBeNull();
  });
});
