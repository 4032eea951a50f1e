import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@tether/shared';
import { WEB_PROTOCOL_MAJOR } from './socket.ts';

describe('socket handshake', () => {
  // The web app keeps the number as a literal (no zod in the first-load bundle); this keeps it honest.
  it('speaks the protocol major that shared declares', () => {
    expect(WEB_PROTOCOL_MAJOR).toBe(PROTOCOL_VERSION.major);
  });
});
