// elicitation.ts: an MCP server asking the person for input (MCP `elicitation/create`, form mode),
// as claude's Elicitation hook forwards it: the request the phone renders as a form, the answer
// (accept with content, decline, cancel), and the one content check both ends use.
//
// Only the flat form MCP allows is accepted (string, number/integer, boolean, enum fields); anything
// else fails to parse, and the runner then leaves claude's own dialog at the desk.
import { z } from 'zod';

const MAX_FIELDS = 30;
const MAX_NAME_CHARS = 100;
const MAX_TEXT_CHARS = 4000;
const MAX_ENUM = 50;
const MAX_STRING_VALUE = 20_000;

const FieldCommon = {
  title: z.string().max(MAX_TEXT_CHARS).optional(),
  description: z.string().max(MAX_TEXT_CHARS).optional(),
};

const StringFieldSchema = z
  .object({
    type: z.literal('string'),
    ...FieldCommon,
    minLength: z.number().int().min(0).max(MAX_STRING_VALUE).optional(),
    maxLength: z.number().int().min(0).max(MAX_STRING_VALUE).optional(),
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    default: z.string().max(MAX_STRING_VALUE).optional(),
    enum: z.array(z.string().max(MAX_TEXT_CHARS)).min(1).max(MAX_ENUM).optional(),
    enumNames: z.array(z.string().max(MAX_TEXT_CHARS)).min(1).max(MAX_ENUM).optional(),
  })
  .strict()
  .refine((f) => !f.enumNames || (f.enum && f.enumNames.length === f.enum.length), { message: 'enumNames must name every enum value' });

const NumberFieldSchema = z
  .object({
    type: z.enum(['number', 'integer']),
    ...FieldCommon,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  })
  .strict();

const BooleanFieldSchema = z
  .object({
    type: z.literal('boolean'),
    ...FieldCommon,
    default: z.boolean().optional(),
  })
  .strict();

export const ElicitationFieldSchema = z.union([StringFieldSchema, NumberFieldSchema, BooleanFieldSchema]);
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;

const FieldNameSchema = z.string().min(1).max(MAX_NAME_CHARS);

/** The JSON schema an MCP server requests: one flat object of primitive fields. */
export const ElicitationSchemaSchema = z
  .object({
    $schema: z.string().max(500).optional(),
    type: z.literal('object'),
    title: z.string().max(MAX_TEXT_CHARS).optional(),
    description: z.string().max(MAX_TEXT_CHARS).optional(),
    properties: z.record(FieldNameSchema, ElicitationFieldSchema).refine((p) => Object.keys(p).length <= MAX_FIELDS, { message: `at most ${MAX_FIELDS} fields` }),
    required: z.array(FieldNameSchema).max(MAX_FIELDS).optional(),
  })
  .strict()
  .refine((s) => (s.required ?? []).every((name) => Object.hasOwn(s.properties, name)), { message: 'a required field is not among the properties' });
export type ElicitationSchema = z.infer<typeof ElicitationSchemaSchema>;

/** What an `elicitation` request carries as its `toolInput`. */
export const ElicitationInputSchema = z
  .object({
    serverName: z.string().min(1).max(200),
    message: z.string().max(MAX_TEXT_CHARS),
    requestedSchema: ElicitationSchemaSchema,
  })
  .strict();
export type ElicitationInput = z.infer<typeof ElicitationInputSchema>;

export const ElicitationValueSchema = z.union([z.string().max(MAX_STRING_VALUE), z.number(), z.boolean()]);
export type ElicitationValue = z.infer<typeof ElicitationValueSchema>;

export const ElicitationAnswerSchema = z
  .object({
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z
      .record(FieldNameSchema, ElicitationValueSchema)
      .refine((c) => Object.keys(c).length <= MAX_FIELDS, { message: `at most ${MAX_FIELDS} fields` })
      .optional(),
  })
  .strict();
export type ElicitationAnswer = z.infer<typeof ElicitationAnswerSchema>;

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const URI = /^[a-z][a-z0-9+.-]*:\S+$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function fieldProblem(field: ElicitationField, value: ElicitationValue): string | null {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      if (field.enum && !field.enum.includes(value)) return 'must be one of the choices';
      if (field.minLength !== undefined && value.length < field.minLength) return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
      if (field.format === 'email' && !EMAIL.test(value)) return 'must be an email address';
      if (field.format === 'uri' && !URI.test(value)) return 'must be a URL';
      if (field.format === 'date' && !DATE.test(value)) return 'must be a date (YYYY-MM-DD)';
      if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return 'must be a date and time';
      return null;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be yes or no';
    default: {
      const never: never = field;
      return String(never);
    }
  }
}

/** Problems of accepted content against the requested schema, by field name (empty: valid). A
 *  field left out is fine unless required; a field the schema does not name is a problem. */
export function elicitationProblems(options: { schema: ElicitationSchema; content: Record<string, ElicitationValue> }): Record<string, string> {
  const { schema, content } = options;
  const problems: Record<string, string> = {};
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(content, name)) problems[name] = 'is required';
  }
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    const problem = field ? fieldProblem(field, value) : 'is not asked for';
    if (problem) problems[name] = problem;
  }
  return problems;
}

/** The form answer an answer gives: its own `elicitation`, else a bare allow accepts (with no
 *  content) and a deny declines. The runner hands exactly this to claude. */
export function elicitationAnswerOf(answer: { decision: string; elicitation?: ElicitationAnswer | undefined }): ElicitationAnswer {
  return answer.elicitation ?? { action: answer.decision === 'allow' ? 'accept' : 'decline' };
}

/** Why an answer cannot answer this form, or null: an accept whose content breaks the requested
 *  schema, named field by field ("replicas must be at most 9; region is required"). One check for
 *  both ends: the hub refuses such an answer (the request stays waiting on every phone), and the
 *  runner never passes one on (claude's own form decides). A decline or cancel carries no content. */
export function elicitationAnswerProblem(input: ElicitationInput, answer: { decision: string; elicitation?: ElicitationAnswer | undefined }): string | null {
  const given = elicitationAnswerOf(answer);
  if (given.action !== 'accept') return null;
  const problems = elicitationProblems({ schema: input.requestedSchema, content: given.content ?? {} });
  const named = Object.entries(problems).map(([field, problem]) => `${field} ${problem}`);
  return named.length === 0 ? null : `the form's answer does not fit its fields: ${named.join('; ')}`;
}
