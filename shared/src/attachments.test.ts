import { describe, expect, it } from 'vitest';
import { AttachmentNameSchema, sniffAttachmentType, splitAttachmentMentions } from './attachments.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);
/** UTF-8 bytes (shared/ compiles without DOM or Bun types: no TextEncoder). */
const text = (value: string) => Uint8Array.from(unescape(encodeURIComponent(value)), (c) => c.charCodeAt(0));

describe('attachments', () => {
  it('tells the type by the first bytes, never by a name', () => {
    expect(sniffAttachmentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(sniffAttachmentType(bytes(0xff, 0xd8, 0xff, 0xe1))).toBe('image/jpeg');
    expect(sniffAttachmentType(text('GIF89a....'))).toBe('image/gif');
    expect(sniffAttachmentType(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(sniffAttachmentType(text('RIFF\u0000\u0000\u0000\u0000WAVEfmt '))).toBeNull();
    expect(sniffAttachmentType(text('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffAttachmentType(text('notes – with “UTF-8”\r\n\tand tabs\f'))).toBe('text/plain');
    expect(sniffAttachmentType(bytes(0x7f, 0x45, 0x4c, 0x46))).toBeNull();
    expect(sniffAttachmentType(text('a\u0000b'))).toBeNull();
    expect(sniffAttachmentType(bytes(0x61, 0xc3))).toBeNull(); // cut UTF-8
    expect(sniffAttachmentType(bytes(0xc0, 0xaf))).toBeNull(); // overlong
    expect(sniffAttachmentType(bytes(0xed, 0xa0, 0x80))).toBeNull(); // a surrogate
    expect(sniffAttachmentType(bytes())).toBeNull();
  });

  it('keeps a file name without folders or control characters', () => {
    expect(AttachmentNameSchema.parse('C:\\Users\\me\\shot.png')).toBe('shot.png');
    expect(AttachmentNameSchema.parse('../../etc/passwd')).toBe('passwd');
    expect(AttachmentNameSchema.parse('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(AttachmentNameSchema.safeParse('dir/').success).toBe(false);
  });

  it('splits the runner\'s leading @paths of attached files from the words', () => {
    const dir = '/tmp/tether-attachments-Ab12/0b6c4f4e-8a51-4d3c-9f0e-2c7b1a9d8e34';
    expect(splitAttachmentMentions(`@${dir}/1-shot.png @${dir}/2-notes.txt what changed?`)).toEqual({ files: ['shot.png', 'notes.txt'], text: 'what changed?' });
    expect(splitAttachmentMentions(`@${dir}/1-shot.png `)).toEqual({ files: ['shot.png'], text: '' });
    expect(splitAttachmentMentions('@src/main.ts explain')).toEqual({ files: [], text: '@src/main.ts explain' });
    expect(splitAttachmentMentions(`see @${dir}/1-shot.png`)).toEqual({ files: [], text: `see @${dir}/1-shot.png` });
  });
});
