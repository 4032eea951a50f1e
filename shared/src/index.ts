// index.ts: re-exports the protocol. Both ends import from here.
export * from './ids.ts';
export * from './limits.ts';
export * from './protocol.ts';
export * from './session.ts';
export * from './chat.ts';
export * from './prompts.ts';
export * from './approvals.ts';
export * from './terminal.ts';
export * from './machine.ts';
export * from './spawn.ts';
export * from './auth.ts';
export * from './share.ts';
export * from './http.ts';
export * from './rooms.ts';
export * from './events/cli.ts';
export * from './events/web.ts';
export * from './push.ts';
