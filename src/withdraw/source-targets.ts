import type { WithdrawTarget } from '../job-files/withdraw/target.js';

/**
 * The claims several sources name, merged: one target per claim id, in the order the sources first
 * name it, its cases in source order without repeats; a case named without its claim (a plain list
 * of case ids) is one target per case. Pure: targets in, targets out.
 */
export class TargetMerger {
  private readonly byClaimId = new Map<string, WithdrawTarget>();
  private readonly byCaseId = new Map<string, WithdrawTarget>();
  private readonly ordered: WithdrawTarget[] = [];

  add(target: WithdrawTarget): void {
    if (target.claimId === '') {
      for (const caseId of target.caseIds) this.addCaseOnly(caseId);
      return;
    }
    const known = this.byClaimId.get(target.claimId);
    if (known === undefined) {
      const copy = { ...target, caseIds: [...new Set(target.caseIds)] };
      this.byClaimId.set(target.claimId, copy);
      this.ordered.push(copy);
      return;
    }
    merge(known, target);
  }

  targets(): WithdrawTarget[] {
    return this.ordered;
  }

  private addCaseOnly(caseId: string): void {
    if (this.byCaseId.has(caseId)) return;
    const target: WithdrawTarget = { claimId: '', claimKey: '', caseIds: [caseId] };
    this.byCaseId.set(caseId, target);
    this.ordered.push(target);
  }
}

/** A second source naming a claim already named: its cases added, its key and proof kept when the first had none. */
function merge(known: WithdrawTarget, target: WithdrawTarget): void {
  for (const caseId of target.caseIds) if (!known.caseIds.includes(caseId)) known.caseIds.push(caseId);
  if (known.claimKey === '') known.claimKey = target.claimKey;
  // A journal's proof outranks a results file's word: the run proves the claim the job's own.
  if (known.proof === undefined) {
    if (target.proof !== undefined) known.proof = target.proof;
    return;
  }
  if (known.proof.kind === 'import' && target.proof?.kind === 'import') {
    const cases = known.proof.cases;
    for (const item of target.proof.cases) if (!cases.some((held) => held.caseId === item.caseId)) cases.push(item);
  }
}
