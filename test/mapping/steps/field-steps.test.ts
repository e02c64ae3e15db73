import { describe, expect, it } from 'vitest';
import { fieldSpecSchema } from '../../../src/mapping/field-spec.js';
import { fieldSteps, type FieldStepDefinition } from '../../../src/mapping/steps/index.js';

/**
 * The step table's own shape (src/mapping/steps/index.ts): one step per name, the sources first,
 * every type, and no step without its code. That its interpreter and its generator agree on
 * every step is the architecture test's (test/docs/architecture.test.ts, with step-cases.ts).
 */

describe('the step table', () => {
  it('has one step per name, the sources first', () => {
    const names = fieldSteps.map((step) => step.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.slice(0, 3)).toStrictEqual(['column', 'template', 'constant']);
  });

  it('has a step for every type of the schema but string (a string is the text as the steps left it)', () => {
    const names: readonly string[] = fieldSteps.map((step) => step.name);
    const types = fieldSpecSchema.shape.type.unwrap().options.filter((type) => type !== 'string');
    for (const type of types) expect(names).toContain(type);
  });

  it('refuses, by its type, a step without its code', () => {
    const interpretedOnly = {
      name: 'reversed',
      applies: () => true,
      readsRow: () => false,
      interpret: () => undefined,
    };
    // @ts-expect-error: no emit, so not a step the table can hold (npx tsc checks this line).
    const table: readonly FieldStepDefinition[] = [...fieldSteps, interpretedOnly];
    expect(table.at(-1)).not.toHaveProperty('emit');
  });

  it('applies exactly one source to any spec', () => {
    const sources = fieldSteps.slice(0, 3);
    for (const raw of [{ column: 'a' }, { template: '{a}' }, { constant: 'x' }, { constant: 3 }, { constant: false }]) {
      const spec = fieldSpecSchema.parse(raw);
      expect(sources.filter((step) => step.applies(spec))).toHaveLength(1);
    }
  });
});
