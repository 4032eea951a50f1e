// sealed.ts: AES-GCM (WebCrypto) for the phone cache. The key comes from the hub (base64url, 32
// bytes) and is imported non-extractable: script can use it while the page lives, never read it out.
// Each record is sealed with a fresh 96-bit IV and bound (additional data) to its namespace and id,
// so a record moved to another slot, another namespace or altered does not open.

export type Sealed = { iv: Uint8Array<ArrayBuffer>; data: ArrayBuffer };

const IV_BYTES = 12;

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function importCacheKey(raw: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64url(raw), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

export async function seal(options: { key: CryptoKey; aad: string; value: unknown }): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const plain = new TextEncoder().encode(JSON.stringify(options.value));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(options.aad) }, options.key, plain);
  return { iv, data };
}

/** The value, or null when this key (or this slot) did not seal it. */
export async function unseal(options: { key: CryptoKey; aad: string; sealed: Sealed }): Promise<unknown> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: options.sealed.iv, additionalData: new TextEncoder().encode(options.aad) },
      options.key,
      options.sealed.data,
    );
    return JSON.parse(new TextDecoder().decode(plain)) as unknown;
  } catch {
    return null;
  }
}
