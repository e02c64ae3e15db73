import { changeCase, lastFour, mapEnum, split } from '../transforms/index.js';
import { remembered } from './remembered.js';
import { textStep } from './step.js';

/** The steps from text to text, each ending the field on a failure: last4 → split → case → enum. */

export const lastFourStep = textStep({
  name: 'last4',
  applies: (spec) => spec.last4 === true,
  prepare: () => lastFour,
});

/** The part taken is trimmed: "12 / 28" split on "/" gives "12" and "28". */
export const splitStep = textStep({
  name: 'split',
  applies: (spec) => spec.split !== undefined,
  prepare(spec) {
    const separator = spec.split?.separator ?? '';
    const index = spec.split?.index ?? 0;
    return (text) => {
      const part = split(text, separator, index);
      return part.ok ? { ok: true, value: part.value.trim() } : part;
    };
  },
});

export const caseStep = textStep({
  name: 'case',
  applies: (spec) => spec.case !== undefined,
  prepare(spec) {
    const to = spec.case ?? 'upper';
    return (text) => changeCase(text, to);
  },
});

export const enumStep = textStep({
  name: 'enum',
  applies: (spec) => spec.enum !== undefined,
  prepare(spec) {
    const table = spec.enum ?? {};
    const options = { caseSensitive: spec.enum_case_sensitive };
    return remembered((text) => mapEnum(text, table, options));
  },
});
