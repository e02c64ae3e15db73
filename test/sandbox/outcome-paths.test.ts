import { describe, expect, it } from 'vitest';
import { dayMs } from '../../src/filing-rules/filing-window.js';
import { canAdvance } from '../../src/sandbox/rules/network-moves.js';
import { answerDays, outcomePath, type OutcomeMove } from '../../src/sandbox/rules/outcome-paths.js';

const filedAtMs = Date.parse('2026-03-01T12:00:00.000Z');
const dueMs = filedAtMs + 110 * dayMs;
const caseIds = Array.from({ length: 10_000 }, (_, index) => `case_${String(index).padStart(5, '0')}`);

/** A path by its statuses and closed reasons: `chargeback_represented>lost/expired`. */
const shape = (moves: OutcomeMove[]) =>
  moves
    .map((move) => (move.closedReason === undefined ? move.status : `${move.status}/${move.closedReason}`))
    .join('>');
const daysBetween = (fromMs: number, toMs: number) => (toMs - fromMs) / dayMs;

describe('outcome paths (--outcomes)', () => {
  const paths = caseIds.map((caseId) => outcomePath(7, caseId, filedAtMs, dueMs));
  const share = (test: (moves: OutcomeMove[]) => boolean, among: OutcomeMove[][] = paths) =>
    among.filter(test).length / among.length;
  const starts = (prefix: string) => (moves: OutcomeMove[]) => shape(moves).startsWith(prefix);

  it('draws the documented shares over 10,000 case ids, within a few percent', () => {
    expect(Math.abs(share((moves) => shape(moves) === 'won/accepted') - 0.3)).toBeLessThan(0.02);
    expect(Math.abs(share((moves) => shape(moves) === 'won/merchant_credited') - 0.1)).toBeLessThan(0.02);
    expect(Math.abs(share((moves) => shape(moves) === 'lost/rejected') - 0.1)).toBeLessThan(0.02);
    expect(Math.abs(share((moves) => shape(moves) === 'won/expired') - 0.15)).toBeLessThan(0.02);
    const represented = paths.filter(starts('chargeback_represented'));
    expect(Math.abs(represented.length / paths.length - 0.35)).toBeLessThan(0.02);
    expect(Math.abs(share((moves) => moves[0]?.needsReview === true, represented) - 1 / 3)).toBeLessThan(0.04);
    expect(Math.abs(share(starts('chargeback_represented>prearb_filed'), represented) - 0.4)).toBeLessThan(0.04);
    expect(
      Math.abs(share((moves) => shape(moves) === 'chargeback_represented>lost/rejected', represented) - 0.3),
    ).toBeLessThan(0.04);
    expect(
      Math.abs(share((moves) => shape(moves) === 'chargeback_represented>lost/expired', represented) - 0.3),
    ).toBeLessThan(0.04);
    const prearb = represented.filter(starts('chargeback_represented>prearb_filed'));
    expect(Math.abs(share((moves) => shape(moves).endsWith('prearb_filed>won/accepted'), prearb) - 0.5)).toBeLessThan(
      0.06,
    );
    expect(Math.abs(share((moves) => shape(moves).endsWith('prearb_filed>lost/rejected'), prearb) - 0.3)).toBeLessThan(
      0.06,
    );
    const arbitration = prearb.filter(starts('chargeback_represented>prearb_filed>prearb_rebutted>arbitration_filed'));
    expect(Math.abs(arbitration.length / prearb.length - 0.2)).toBeLessThan(0.05);
    expect(Math.abs(share((moves) => moves.at(-1)?.status === 'won', arbitration) - 0.5)).toBeLessThan(0.12);
    // Nothing else: every path is one of the ten shapes.
    expect(new Set(paths.map(shape))).toEqual(
      new Set([
        'won/accepted',
        'won/merchant_credited',
        'lost/rejected',
        'won/expired',
        'chargeback_represented>lost/rejected',
        'chargeback_represented>lost/expired',
        'chargeback_represented>prearb_filed>won/accepted',
        'chargeback_represented>prearb_filed>lost/rejected',
        'chargeback_represented>prearb_filed>prearb_rebutted>arbitration_filed>won/accepted',
        'chargeback_represented>prearb_filed>prearb_rebutted>arbitration_filed>lost/rejected',
      ]),
    );
  });

  it('times each move as documented, after the one before, along moves the network may make', () => {
    const within = (fromMs: number, toMs: number, minDays: number, maxDays: number) => {
      expect(daysBetween(fromMs, toMs)).toBeGreaterThanOrEqual(minDays);
      expect(daysBetween(fromMs, toMs)).toBeLessThan(maxDays);
    };
    for (const moves of paths) {
      let status = 'chargeback_filed';
      let atMs = filedAtMs;
      let due = dueMs;
      for (const move of moves) {
        expect(canAdvance(status, move.status)).toBe(true);
        expect(move.atMs).toBeGreaterThan(atMs);
        if (move.resolutionDueMs !== undefined) {
          expect(move.resolutionDueMs).toBe(move.atMs + answerDays * dayMs);
          due = move.resolutionDueMs;
        }
        const path = shape(moves);
        if (path === 'won/accepted') within(atMs, move.atMs, 5, 30);
        if (path === 'won/merchant_credited') within(atMs, move.atMs, 3, 20);
        if (path === 'lost/rejected') within(atMs, move.atMs, 10, 40);
        if (move.closedReason === 'expired') expect(move.atMs).toBe(due);
        if (move.status === 'chargeback_represented') within(atMs, move.atMs, 10, 30);
        if (move.status === 'prearb_filed') within(atMs, move.atMs, 5, 25);
        if (status === 'chargeback_represented' && move.closedReason === 'rejected') within(atMs, move.atMs, 5, 25);
        if (status === 'prearb_filed' && (move.status === 'won' || move.status === 'lost'))
          within(atMs, move.atMs, 10, 30);
        if (move.status === 'prearb_rebutted') within(atMs, move.atMs, 5, 15);
        if (move.status === 'arbitration_filed') within(atMs, move.atMs, 5, 10);
        if (status === 'arbitration_filed') within(atMs, move.atMs, 20, 40);
        status = move.status;
        atMs = move.atMs;
      }
      expect(['won', 'lost']).toContain(status);
      expect(moves.filter((move) => move.needsReview === true).map((move) => move.status)).toEqual(
        moves[0]?.needsReview === true ? ['chargeback_represented'] : [],
      );
    }
  });

  it('depends on the seed and the case id only', () => {
    expect(outcomePath(7, 'case_00042', filedAtMs, dueMs)).toEqual(paths[42]);
    // Filed later: the same moves, as long after the filing.
    const later = outcomePath(7, 'case_00042', filedAtMs + 3 * dayMs, dueMs + 3 * dayMs);
    expect(
      later.map((move) => ({
        ...move,
        atMs: move.atMs - 3 * dayMs,
        resolutionDueMs: move.resolutionDueMs === undefined ? undefined : move.resolutionDueMs - 3 * dayMs,
      })),
    ).toEqual(paths[42]);
    const otherSeed = caseIds.map((caseId) => outcomePath(8, caseId, filedAtMs, dueMs));
    expect(otherSeed.filter((moves, index) => shape(moves) !== shape(paths[index] ?? [])).length).toBeGreaterThan(5000);
  });

  it('a case whose due date has already passed at filing, when nobody answers, ends at once', () => {
    const expiring = caseIds.find((caseId) => shape(outcomePath(7, caseId, filedAtMs, dueMs)) === 'won/expired') ?? '';
    expect(outcomePath(7, expiring, filedAtMs, filedAtMs - 5 * dayMs)).toEqual([
      { status: 'won', closedReason: 'expired', atMs: filedAtMs },
    ]);
  });
});
