import fc from 'fast-check';
import { hostileValue } from './hostile-values';

/** The part of JSON Schema the OpenAPI document of fastify-type-provider-zod uses. */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Generated sizes stay small; the hostile values bring the huge ones. */
const MAX_GENERATED = 8;

function stringFrom(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl();
  if (schema.format === 'email') return fc.emailAddress();
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  return fc.string({ unit: 'grapheme', minLength, maxLength });
}

function numberFrom(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  return schema.type === 'integer'
    ? fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) })
    : fc.double({ min, max, noNaN: true });
}

/** Values the schema accepts (as far as generation can tell: refinements are not in the document). */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const base = ((): fc.Arbitrary<unknown> => {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const choices = schema.oneOf ?? schema.anyOf;
    if (choices) return fc.oneof(...choices.map((choice) => fuzzedValue(choice, depth)));
    if (schema.allOf?.length === 1) return fuzzedValue(schema.allOf[0]!, depth);
    switch (schema.type) {
      case 'string':
        return stringFrom(schema);
      case 'integer':
      case 'number':
        return numberFrom(schema);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(fuzzedValue(schema.items ?? {}, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(
            schema.minItems ?? 0,
            Math.min(schema.maxItems ?? MAX_GENERATED, MAX_GENERATED),
          ),
        });
      case 'object':
        return fuzzedObject(schema, depth);
      default:
        // `{}`: the schema takes anything (zod's unknown).
        return fc.jsonValue({ maxDepth: 3 });
    }
  })();
  return schema.nullable ? fc.oneof(fc.constant(null), base) : base;
}

/** Mostly what the schema takes, sometimes something hostile in its place. */
export function fuzzedValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  // Deeper fields are hostile less often, so most requests get past the first check.
  return fc.oneof(
    { arbitrary: validValue(schema, depth), weight: 6 + 4 * depth },
    { arbitrary: hostileValue, weight: 1 },
  );
}

/** An object of the schema's properties: a required one may go missing, and unknown ones may come along. */
function fuzzedObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, property]) => [key, fuzzedValue(property, depth + 1)]),
  );
  const complete = fc.record(properties, { requiredKeys: schema.required ?? [] });
  const incomplete = fc.record(properties, { requiredKeys: [] });
  const extra = fc.dictionary(
    fc.oneof(
      fc.constantFrom('__proto__', 'constructor', '_method', 'user_id', 'id', 'role'),
      fc.string({ maxLength: 12 }),
    ),
    hostileValue,
    { maxKeys: 3 },
  );
  return fc
    .tuple(
      fc.oneof({ arbitrary: complete, weight: 4 }, { arbitrary: incomplete, weight: 1 }),
      fc.option(extra, { freq: 5 }),
    )
    .map(([object, more]) => (more ? { ...more, ...object } : object));
}
