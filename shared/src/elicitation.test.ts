import { describe, expect, it } from 'vitest';
import { AnswerSchema, PendingRequestSchema } from './approvals.ts';
import { ElicitationInputSchema, ElicitationSchemaSchema, elicitationProblems, type ElicitationSchema } from './elicitation.ts';
import { notificationNeedsPerson, SessionAttentionSchema } from './notifications.ts';

/** The schema the e2e fixture's MCP server asks for (claude 2.1.330 forwards it unchanged). */
const DEPLOY: ElicitationSchema = ElicitationSchemaSchema.parse({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'Who signs off', minLength: 1, maxLength: 40 },
    replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9 },
    notify: { type: 'boolean', title: 'Notify the team', default: true },
    region: { type: 'string', title: 'Region', enum: ['eu-west', 'us-east'], enumNames: ['Europe', 'US'] },
    email: { type: 'string', format: 'email' },
  },
  required: ['name', 'region'],
});

describe('elicitation schema (MCP form mode: flat primitive fields only)', () => {
  it('accepts string, number/integer, boolean and enum fields with titles, descriptions and required', () => {
    expect(Object.keys(DEPLOY.properties)).toEqual(['name', 'replicas', 'notify', 'region', 'email']);
  });

  it('refuses what a phone form could not show faithfully, with a reason', () => {
    const refuse = (schema: unknown) => ElicitationSchemaSchema.safeParse(schema).success;
    expect(refuse({ type: 'object', properties: { nested: { type: 'object', properties: {} } } })).toBe(false);
    expect(refuse({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } })).toBe(false);
    expect(refuse({ type: 'object', properties: { a: { type: 'string', pattern: '^x' } } })).toBe(false);
    expect(refuse({ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] })).toBe(false);
    expect(refuse({ type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'], enumNames: ['X'] } } })).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`f${i}`, { type: 'boolean' }]));
    expect(refuse({ type: 'object', properties: many })).toBe(false);
    expect(refuse({ type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(4001) } } })).toBe(false);
    expect(refuse({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} })).toBe(true);
  });

  it('checks accepted content: required, types, enum, bounds, formats, unknown fields', () => {
    expect(elicitationProblems({ schema: DEPLOY, content: { name: 'Ada', region: 'us-east', replicas: 3, notify: false } })).toEqual({});
    expect(elicitationProblems({ schema: DEPLOY, content: {} })).toEqual({ name: 'is required', region: 'is required' });
    expect(
      elicitationProblems({ schema: DEPLOY, content: { name: '', region: 'mars', replicas: 2.5, notify: 'yes', email: 'nope', extra: 1 } }),
    ).toEqual({
      name: 'must be at least 1 characters',
      region: 'must be one of the choices',
      replicas: 'must be a whole number',
      notify: 'must be yes or no',
      email: 'must be an email address',
      extra: 'is not asked for',
    });
    expect(elicitationProblems({ schema: DEPLOY, content: { name: 'A', region: 'eu-west', replicas: 10 } })).toEqual({ replicas: 'must be at most 9' });
  });

  it('an elicitation request must carry a valid form; its answer must agree with its decision', () => {
    const base = { id: '0a266980-188b-4d0b-800d-d04507269b66', sessionId: '0a266980-188b-4d0b-800d-d04507269b66', kind: 'elicitation', toolName: 'deploy', toolUseId: null, createdAt: 1 };
    const input = ElicitationInputSchema.parse({ serverName: 'deploy', message: 'Who?', requestedSchema: DEPLOY });
    expect(PendingRequestSchema.safeParse({ ...base, toolInput: input }).success).toBe(true);
    expect(PendingRequestSchema.safeParse({ ...base, toolInput: { command: 'ls' } }).success).toBe(false);
    expect(PendingRequestSchema.safeParse({ ...base, kind: 'permission', toolInput: { command: 'ls' } }).success).toBe(true);
    expect(AnswerSchema.safeParse({ decision: 'allow', elicitation: { action: 'accept', content: { name: 'Ada' } } }).success).toBe(true);
    expect(AnswerSchema.safeParse({ decision: 'deny', elicitation: { action: 'cancel' } }).success).toBe(true);
    expect(AnswerSchema.safeParse({ decision: 'allow', elicitation: { action: 'decline' } }).success).toBe(false);
    expect(AnswerSchema.safeParse({ decision: 'allow', elicitation: { action: 'accept', content: { a: { nested: 1 } } } }).success).toBe(false);
  });
});

describe('notification types', () => {
  it('a person is needed for permission prompts, dialogs and agents needing input; not for idle or done', () => {
    for (const type of ['permission_prompt', 'worker_permission_prompt', 'elicitation_dialog', 'elicitation_url_dialog', 'agent_needs_input', 'some_new_dialog']) {
      expect(notificationNeedsPerson(type), type).toBe(true);
    }
    for (const type of ['idle_prompt', 'auth_success', 'elicitation_complete', 'elicitation_response', 'agent_completed', 'computer_use_enter', 'push_notification', '']) {
      expect(notificationNeedsPerson(type), type).toBe(false);
    }
  });

  it('the attention event is bounded', () => {
    expect(SessionAttentionSchema.safeParse({ sessionId: '0a266980-188b-4d0b-800d-d04507269b66', notificationType: 'agent_needs_input', message: 'x' }).success).toBe(true);
    expect(SessionAttentionSchema.safeParse({ sessionId: '0a266980-188b-4d0b-800d-d04507269b66', notificationType: 'x'.repeat(101) }).success).toBe(false);
    expect(SessionAttentionSchema.safeParse({ sessionId: '0a266980-188b-4d0b-800d-d04507269b66', notificationType: 'a', message: 'x'.repeat(1001) }).success).toBe(false);
  });
});
