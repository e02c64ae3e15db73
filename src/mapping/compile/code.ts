/**
 * The text of a generated function, kept safe by construction: nothing read from a mapping or a
 * file is ever spliced into the code. Values (column names, template text, enum tables, messages,
 * the transforms themselves) are passed in as constants and named `k0`, `k1`, ...; cells are read
 * by numeric index; the only other text is property names, spliced as JSON.stringify'd string
 * literals, which cannot end the literal they are in.
 */
export class GeneratedCode {
  private readonly constants: unknown[] = [];
  /** A value passed twice (a transform, a field name) is one constant. */
  private readonly names = new Map<unknown, string>();
  private readonly lines: string[] = [];
  private variables = 0;

  /** A constant the code reads by name: the value itself never appears in the code. */
  constant(value: unknown): string {
    let name = this.names.get(value);
    if (name === undefined) {
      name = `k${this.constants.length}`;
      this.constants.push(value);
      this.names.set(value, name);
    }
    return name;
  }

  /** A fresh local variable name (`_0`, `_1`, ...). */
  variable(): string {
    return `_${this.variables++}`;
  }

  line(text: string): void {
    this.lines.push(text);
  }

  /**
   * The function `(parameter) => …` whose body is the lines so far. Constants become `const`
   * bindings of the enclosing closure, so the engine sees each call site's one target.
   */
  build(name: string, parameter: string): (argument: never) => unknown {
    const bindings = this.constants.map((_, index) => `const k${index} = constants[${index}];`).join('\n');
    const source = `'use strict';\n${bindings}\nreturn function ${name}(${parameter}) {\n${this.lines.join('\n')}\n};`;
    // Code generation, as fast-json-stringify and ajv do: see the class comment for why it is safe.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const factory = new Function('constants', source) as (
      constants: readonly unknown[],
    ) => (argument: never) => unknown;
    return factory(this.constants);
  }
}

/** `["card"]`: a property name as the code spells it (a JSON string is a JS string literal). */
export function property(name: string): string {
  return `[${JSON.stringify(name)}]`;
}

/** `raw[3]` as mapRow's cells read it: a column past the end of a short record is blank. */
export function cell(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new Error(`generated code: expected a cell index, got ${index}`);
  return `(raw[${index}] ?? '')`;
}
