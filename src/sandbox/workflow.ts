import type { SandboxCore } from './core.js';
import { fileCaseIfValid } from './lifecycle.js';
import { findCase, saveCase, type CaseRow, type Environment } from './store/records.js';

/**
 * The run_workflow evaluation's lifecycle: started by the handler (state `running`), finished
 * after `workflowDelayMs`, resumed after a restart. Its outcome is the workflow rules'
 * (rules/workflow-rules.ts).
 */

/** The evaluation's end: the rules' outcome, if the case still passes validation. */
export function finishWorkflow(core: SandboxCore, environment: Environment, caseId: string): void {
  core.transaction(() => {
    const row = findCase(core.database, environment, caseId);
    if (row?.workflow_state !== 'running') return;
    const cleared = { ...row, workflow_state: null };
    saveCase(core.database, cleared);
    fileCaseIfValid(core, cleared, 'auto');
  });
}

/** Evaluations cut short by a restart finish once the sandbox is back, rather than stay `running`. */
export function resumeInterruptedWorkflows(core: SandboxCore): void {
  const running = core.database
    .prepare("SELECT environment, case_id FROM cases WHERE workflow_state = 'running'")
    .all() as Pick<CaseRow, 'environment' | 'case_id'>[];
  for (const row of running)
    core.later(core.workflowDelayMs, () => {
      finishWorkflow(core, row.environment, row.case_id);
    });
}
