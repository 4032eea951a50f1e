// voice-prefs.ts: the person's voice choices on this device (localStorage): which recognizer
// dictation uses when both exist, and whether hands-free is on. Every mounted control sees a change.
import { useCallback, useSyncExternalStore } from 'react';

export type VoiceEngine = 'device' | 'hub';
export type VoicePrefs = { engine: VoiceEngine; handsFree: boolean };

const KEY = 'tether.voice';
const DEFAULTS: VoicePrefs = { engine: 'device', handsFree: false };
const listeners = new Set<() => void>();
let cached: { raw: string | null; prefs: VoicePrefs } | null = null;

function read(): VoicePrefs {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    // Storage blocked (private mode): the defaults, for this page only.
  }
  if (cached && cached.raw === raw) return cached.prefs;
  let prefs = DEFAULTS;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<VoicePrefs>) : {};
    prefs = { engine: parsed.engine === 'hub' ? 'hub' : 'device', handsFree: parsed.handsFree === true };
  } catch {
    prefs = DEFAULTS;
  }
  cached = { raw, prefs };
  return prefs;
}

function write(patch: Partial<VoicePrefs>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...read(), ...patch }));
  } catch {
    // Not kept past this page; the controls still follow.
    cached = { raw: null, prefs: { ...read(), ...patch } };
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useVoicePrefs(): [VoicePrefs, (patch: Partial<VoicePrefs>) => void] {
  const prefs = useSyncExternalStore(subscribe, read, () => DEFAULTS);
  return [prefs, useCallback((patch: Partial<VoicePrefs>) => write(patch), [])];
}
