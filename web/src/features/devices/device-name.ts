// device-name.ts: what a device is called in its list. The hub labels a paired device
// "paired device <date> <device browser>" (known words only); the list shows "Android Chrome" and
// says when it was paired on its own line. Any other label is shown as it is.
const PAIRED = /^paired device \d{4}-\d{2}-\d{2} (.+)$/;

export function deviceName(label: string): string {
  return PAIRED.exec(label)?.[1] ?? (label.trim() || 'A device');
}
