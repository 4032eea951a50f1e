import { expect, it } from 'vitest';
import { deviceName } from './device-name.ts';

it('names a paired device by its device and browser, anything else by its label', () => {
  expect(deviceName('paired device 2026-12-06 Android Chrome')).toBe('Android Chrome');
  expect(deviceName('paired device 2026-12-06 unknown browser')).toBe('unknown browser');
  expect(deviceName('laptop')).toBe('laptop');
  expect(deviceName('  ')).toBe('A device');
});
