import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { disputeReasons, workflowOutcomes } from '../../api/schemas/known-values.js';
import { codeOf } from '../../errors/coded-error.js';

/**
 * Workflow rules: what `file_mode: auto` and `run_workflow` do with a case. The first rule whose
 * conditions all hold decides; none holding, `default` does. Outcomes: `file_chargeback` files the
 * case; `queue` and `hold` keep it `created` with its workflow state set; `flag_for_review` sets
 * `review_status: chargeback_needs_review` (docs/sandbox.md, "Workflow rules").
 */

const condition = z.strictObject({
  reason: z.array(z.enum(disputeReasons)).min(1).optional(),
  /** Dispute amount, in minor units, strictly above this. */
  amount_over: z.number().int().nonnegative().optional(),
  amount_at_most: z.number().int().nonnegative().optional(),
  merchant_category_codes: z
    .array(z.string().regex(/^\d{4}$/))
    .min(1)
    .optional(),
  /** Every listed custom field must have exactly this value. */
  custom_fields: z.record(z.string(), z.string()).optional(),
  /** The conditions review's verdict (rules/review.ts). */
  meets_conditions: z.boolean().optional(),
});

export const workflowRulesSchema = z.strictObject({
  rules: z
    .array(z.strictObject({ name: z.string().optional(), when: condition, outcome: z.enum(workflowOutcomes) }))
    .default([]),
  default: z.enum(workflowOutcomes).default('file_chargeback'),
});

export type WorkflowRules = z.output<typeof workflowRulesSchema>;
export type WorkflowOutcome = (typeof workflowOutcomes)[number];

/** No rules file: every case is filed (the documented outcome `file_chargeback`). */
export const defaultWorkflowRules: WorkflowRules = { rules: [], default: 'file_chargeback' };

/** What the rules look at, read from the case and its review. */
export interface CaseFacts {
  reason: string | undefined;
  amount: number | undefined;
  merchantCategoryCode: string | undefined;
  customFields: Record<string, string>;
  meetsConditions: boolean;
}

export function evaluateRules(rules: WorkflowRules, facts: CaseFacts): WorkflowOutcome {
  const match = rules.rules.find(({ when }) => holds(when, facts));
  return match?.outcome ?? rules.default;
}

function holds(when: z.output<typeof condition>, facts: CaseFacts): boolean {
  if (when.reason && !(facts.reason !== undefined && (when.reason as readonly string[]).includes(facts.reason)))
    return false;
  if (when.amount_over !== undefined && !(facts.amount !== undefined && facts.amount > when.amount_over)) return false;
  if (when.amount_at_most !== undefined && !(facts.amount !== undefined && facts.amount <= when.amount_at_most))
    return false;
  if (
    when.merchant_category_codes &&
    !(facts.merchantCategoryCode !== undefined && when.merchant_category_codes.includes(facts.merchantCategoryCode))
  )
    return false;
  if (
    when.custom_fields &&
    !Object.entries(when.custom_fields).every(([key, value]) => facts.customFields[key] === value)
  )
    return false;
  if (when.meets_conditions !== undefined && facts.meetsConditions !== when.meets_conditions) return false;
  return true;
}

/** Reads a rules file (JSON), with the file and the field in every error. */
export async function loadRulesFile(path: string): Promise<WorkflowRules> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`--rules ${path}: expected a readable JSON file, got ${codeOf(error) ?? 'unreadable'}`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`--rules ${path}: expected JSON, got ${(error as Error).message}`, { cause: error });
  }
  const parsed = workflowRulesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`--rules ${path}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
