// engine-choice.test.ts: the hub's endpoint is used only when the hub has one; the person's
// preference wins where both exist; the sentence names the endpoint's host.
import { describe, expect, it } from 'vitest';
import { pickEngine, whereAudioGoes } from './engine-choice.ts';

describe('engine choice', () => {
  it('follows the preference where both exist, and falls back to what exists', () => {
    expect(pickEngine('hub', { device: true, hub: true })).toBe('hub');
    expect(pickEngine('device', { device: true, hub: true })).toBe('device');
    // No endpoint on the hub: only the browser's own, whatever the preference.
    expect(pickEngine('hub', { device: true, hub: false })).toBe('device');
    // No recognizer in the browser (Firefox): the hub's, when it has one.
    expect(pickEngine('device', { device: false, hub: true })).toBe('hub');
    expect(pickEngine('device', { device: false, hub: false })).toBeNull();
  });

  it("offers no mic to a person who prefers the hub's endpoint until the hub has said whether it has one", () => {
    // Caught by the voice browser test under load: the browser's recognizer stood in for the hub's
    // while the hub's features loaded, so a tap sent the audio to the browser's speech service.
    expect(pickEngine('hub', { device: true, hub: null })).toBeNull();
    expect(pickEngine('device', { device: true, hub: null })).toBe('device');
  });

  it('says where the audio goes', () => {
    expect(whereAudioGoes('hub', 'whisper.lan')).toBe('Audio goes to whisper.lan via your hub; nothing is kept.');
    expect(whereAudioGoes('device', null)).toBe('Audio goes to your browser’s own speech recognition.');
  });
});
