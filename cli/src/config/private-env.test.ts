import { describe, expect, it } from 'vitest';
import { isPrivateEnvKey, withoutPrivateEnv } from './private-env.ts';

describe('private env', () => {
  it('drops the hub token, hub URL and the session identity; keeps TETHER_HOME and the rest', () => {
    const env = withoutPrivateEnv({ TETHER_TOKEN: 't', TETHER_HUB_URL: 'http://x', TETHER_SESSION_ID: 's', TETHER_HOME: '/h', PATH: '/bin' });
    expect(env).toEqual({ TETHER_HOME: '/h', PATH: '/bin' });
    expect(isPrivateEnvKey('TETHER_TOKEN')).toBe(true);
    expect(isPrivateEnvKey('TETHER_TOKENS')).toBe(false);
  });
});
