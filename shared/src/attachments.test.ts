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

  it('drops what can disguise a name: bidi controls, C1 controls, invisible format characters, lone surrogates', () => {
    // U+202E (right-to-left override) shows "invoice\u202Egnp.exe" as "invoiceexe.png".
    expect(AttachmentNameSchema.parse('invoice\u202Egnp.exe')).toBe('invoicegnp.exe');
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']) {
      expect(AttachmentNameSchema.parse(`a${control}b.png`), JSON.stringify(control)).toBe('ab.png');
    }
    expect(AttachmentNameSchema.parse('a\u0085b\u009bc\u0080.txt')).toBe('abc.txt'); // C1 controls
    expect(AttachmentNameSchema.parse('\ufeffshot\u200b\u2060\u00ad.png')).toBe('shot.png'); // BOM, zero-width, soft hyphen
    expect(AttachmentNameSchema.parse('line\u2028break\u2029.txt')).toBe('linebreak.txt');
    expect(AttachmentNameSchema.parse('evil\n/../passwd')).toBe('passwd'); // no folder kept behind a line break
    expect(AttachmentNameSchema.parse('half\ud800.txt')).toBe('half.txt'); // a lone surrogate cannot be encoded
    expect(AttachmentNameSchema.safeParse('\u202E\u200F').success).toBe(false); // nothing readable left
    // Readable names stay as they are: accents, other scripts (Hebrew reads right to left on its
    // own, without a control), emoji with their joiners.
    expect(AttachmentNameSchema.parse('résumé – 履歴書.pdf')).toBe('résumé – 履歴書.pdf');
    expect(AttachmentNameSchema.parse('שלום.txt')).toBe('שלום.txt');
    expect(AttachmentNameSchema.parse('family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}.png')).toBe('family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}.png');
  });

  it('splits the runner\'s leading @paths of attached files from the words', () => {
    const dir = '/tmp/tether-attachments-Ab12/0b6c4f4e-8a51-4d3c-9f0e-2c7b1a9d8e34';
    expect(splitAttachmentMentions(`@${dir}/1-shot.png @${dir}/2-notes.txt what changed?`)).toEqual({ files: ['shot.png', 'notes.txt'], text: 'what changed?' });
    expect(splitAttachmentMentions(`@${dir}/1-shot.png `)).toEqual({ files: ['shot.png'], text: '' });
    expect(splitAttachmentMentions('@src/main.ts explain')).toEqual({ files: [], text: '@src/main.ts explain' });
    expect(splitAttachmentMentions(`see @${dir}/1-shot.png`)).toEqual({ files: [], text: `see @${dir}/1-shot.png` });
  });
});
