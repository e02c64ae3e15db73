import type { WithdrawJournal, WithdrawLine } from '../job-files/withdraw/journal.js';
import type { WithdrawPlan } from './plan.js';
import type { PlannedTarget } from './plan-targets.js';
import { sendRequest } from './send.js';
import type { WithdrawWork } from './withdraw-work.js';

/** A dry run: each planned line settled as what it would become, nothing sent. */
export function settleDryRun(journal: WithdrawJournal, plans: ReadonlyMap<number, PlannedTarget>): void {
  for (const [seq, { plan }] of plans)
    journal.settle(
      seq,
      [
        ...plan.final,
        ...plan.requests.flatMap((request) =>
          request.lines.map((line) => ({
            ...line,
            outcome: request.action === 'delete_case' ? 'would_delete' : 'would_withdraw',
          })),
        ),
      ],
      { final: true, attempts: 0 },
    );
}

/**
 * Each withdrawal or delete once; the lines settled with it. Nothing is written while the plan is
 * incomplete (`unplanned` targets). Returns how many claims were not started.
 */
export async function sendPlans(
  plans: ReadonlyMap<number, PlannedTarget>,
  unplanned: number,
  work: WithdrawWork,
  progress: WithdrawPlan['progress'],
): Promise<number> {
  const { client, journal, sender } = work;
  let notStarted = 0;
  progress?.begin({ label: 'withdrawing', unit: 'claims', total: plans.size });
  let done = 0;
  await Promise.all(
    [...plans].map(async ([seq, { plan }]) =>
      sender.limit(async () => {
        if (sender.stopping || (unplanned > 0 && plan.requests.length > 0)) {
          notStarted++;
          return;
        }
        const lines: WithdrawLine[] = [...plan.final];
        let final = true;
        let attempts = 0;
        for (const request of plan.requests) {
          try {
            const outcome = await sendRequest(client, journal, request);
            lines.push(...outcome.lines);
            final &&= outcome.final;
            attempts += outcome.attempts;
            if (outcome.final) sender.succeeded();
            else sender.breaker.failed(outcome.lines[0]?.errorMessage ?? 'failed');
          } catch (error) {
            sender.failed(error);
            return;
          }
        }
        journal.settle(seq, lines, { final, attempts });
        // The running counts, per case, as the results will say them.
        for (const line of lines) progress?.count(line.outcome);
        progress?.update(++done);
        sender.showBreaker();
      }),
    ),
  );
  return notStarted;
}
