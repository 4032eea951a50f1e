// contract-store.ts: a fresh store per test of a store contract (store/*.contract.ts), whichever
// database the calling test file's factory opens; read it inside a test.
import { afterEach, beforeEach } from 'vitest';
import type { Store } from '../store/store.ts';

export function useContractStore(create: () => Promise<{ store: Store; cleanup(): Promise<void> }>): () => Store {
  let opened: { store: Store; cleanup(): Promise<void> } | null = null;
  beforeEach(async () => {
    opened = await create();
  });
  afterEach(async () => {
    await opened?.cleanup();
    opened = null;
  });
  return () => {
    if (!opened) throw new Error('the contract store is open only inside a test');
    return opened.store;
  };
}
