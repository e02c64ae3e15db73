import { describe, expect, it } from 'vitest';
import { disputeReasons } from '../../../src/api/schemas/known-values.js';
import { guessMapping } from '../../../src/mapping/guess/guess-mapping.js';
import { isReasonColumn, matchReasonLabel } from '../../../src/mapping/guess/reason-labels.js';
import { similarity } from '../../../src/mapping/guess/words.js';
import { developmentLabels } from './reason-labels-dev.js';

/** Reason labels as issuers write them → the service's v2 reasons, or a person's decision. */

const reasonOf = (label: string) => {
  const match = matchReasonLabel(label);
  return match.kind === 'placed' ? match.reason : match.kind;
};

describe('matchReasonLabel', () => {
  it('a phrase of the vocabulary, whatever the case, accents, punctuation, plural or word order', () => {
    for (const label of ['Non reçu', 'NON RECU', 'non-reçu', 'Non reçus'])
      expect(reasonOf(label), label).toBe('product_not_received');
    expect(reasonOf('Amount incorrect')).toBe('incorrect_amount');
    expect(reasonOf('Cancelled subscription')).toBe('subscription_canceled');
    expect(reasonOf('Canceled subscription')).toBe('subscription_canceled');
    expect(matchReasonLabel('Non reçu')).toEqual({
      kind: 'placed',
      reason: 'product_not_received',
      how: 'words',
      why: 'French "non reçu" = not received',
    });
  });

  it('a label sharing most of its weight with one reason, with the words that decided it', () => {
    const match = matchReasonLabel('Colis jamais reçu');
    expect(match).toMatchObject({ kind: 'placed', reason: 'product_not_received', how: 'words' });
    expect(match.kind === 'placed' && match.why).toMatch(
      /^French "colis non reçu" = not received, by the words "Colis", "reçu" \(score 0\.\d\d\)$/,
    );
    // German compounds: the vocabulary's word inside the label's.
    expect(reasonOf('Kreditkartenmissbrauch')).toBe('fraud');
  });

  it("the networks' reason codes, alone or with their names", () => {
    expect(matchReasonLabel('10.4')).toEqual({
      kind: 'placed',
      reason: 'fraud',
      how: 'code',
      why: 'Visa 10.4 "Other Fraud – Card-Absent Environment"',
    });
    expect(reasonOf('Visa 13.1 - Merchandise not received')).toBe('product_not_received');
    expect(reasonOf('12.6.1')).toBe('duplicate_charge');
    expect(reasonOf('MC 4837')).toBe('fraud');
    expect(reasonOf('C08')).toBe('product_not_received');
    expect(reasonOf('UA02')).toBe('fraud');
    expect(reasonOf('DP')).toBe('duplicate_charge');
    expect(reasonOf('DUP')).toBe('duplicate_charge');
  });

  it('a code its words contradict, two codes, or a code that covers several reasons: a person decides', () => {
    expect(matchReasonLabel('13.1 duplicate charge')).toMatchObject({
      kind: 'undecided',
      why: expect.stringContaining('is product_not_received, but its words read as duplicate_charge') as unknown,
    });
    expect(reasonOf('10.4 / 13.1')).toBe('undecided');
    expect(matchReasonLabel('4853')).toMatchObject({
      kind: 'undecided',
      why: 'Mastercard 4853 "Cardholder Dispute" covers several reasons (or none): pick the one these disputes are',
    });
    // …unless its words narrow it down.
    expect(reasonOf('4853 - not as described')).toBe('product_not_as_described');
  });

  it('never a guess between two reasons that read alike', () => {
    // Counterfeit goods, or a counterfeit card (fraud)?
    expect(matchReasonLabel('Counterfeit')).toMatchObject({
      kind: 'undecided',
      why: expect.stringMatching(/^reads as product_counterfeit \(.*\) or fraud \(.*\): pick one$/) as unknown,
    });
    // "devolución" is a return and a refund.
    expect(reasonOf('Devolución no abonada')).toBe('undecided');
    // CNP: card not present (fraud) at one issuer, credit not processed at the next.
    expect(reasonOf('CNP')).toBe('unknown');
  });

  it('a label no reason can be told from stays unknown', () => {
    for (const label of ['Litige commercial', 'Pending review', 'Kulanz', 'xyz', 'RC1', ''])
      expect(reasonOf(label), label).toBe('unknown');
  });

  it('"Betrag" (amount) is not "Betrug" (fraud), "Zahlung" not "Auszahlung"', () => {
    expect(similarity('betrag', 'betrug')).toBe(0);
    expect(similarity('zahlung', 'auszahlung')).toBe(0);
    expect(similarity('kartenmissbrauch', 'missbrauch')).toBe(0.8);
    expect(similarity('unautorizized', 'autorizized')).toBe(0);
    expect(similarity('ricevuta', 'ricevuto')).toBe(0.9);
  });

  it('the development labels: nearly all placed, none wrongly', () => {
    const outcomes = developmentLabels.map(([label, expected]) => ({ label, expected, got: reasonOf(label) }));
    const placeable = outcomes.filter((outcome) => outcome.expected !== null);
    const wrong = outcomes.filter(
      (outcome) => outcome.got !== outcome.expected && (disputeReasons as readonly string[]).includes(outcome.got),
    );
    expect(wrong).toEqual([]);
    expect(
      placeable.filter((outcome) => outcome.got === outcome.expected).length / placeable.length,
    ).toBeGreaterThanOrEqual(0.9);
  });
});

describe('the reason column in a draft', () => {
  const sampleOf = (columns: string[], rows: string[][]) => ({
    columns,
    rows: rows.map((cells) => Object.fromEntries(columns.map((column, position) => [column, cells[position] ?? '']))),
  });
  const draftOf = (columns: string[], rows: string[][]) =>
    guessMapping({
      sample: sampleOf(columns, rows),
      encoding: { encoding: 'utf-8', confidence: 'high', evidence: 'test' },
      dialect: { delimiter: ',', quote: '"', lineEnding: 'LF', header: true, confidence: 'high', evidence: 'test' },
      source: 'sample.csv',
      unreadableRows: 0,
      schemaPath: 'mappings/mapping.schema.json',
    });

  it('each label read from the vocabulary carries its CHECK; the others stay TODO, with what they could be', () => {
    const draft = draftOf(['Motif'], [['Non reçu'], ['Non reçu'], ['Counterfeit'], ['Litige commercial'], ['fraud']]);
    const lines = draft.yaml.split('\n');
    expect(lines).toContain('      "Non reçu": product_not_received   # CHECK: French "non reçu" = not received');
    expect(lines.find((line) => line.startsWith('      Counterfeit: TODO'))).toMatch(
      / {3}# reads as product_counterfeit .* or fraud .*: pick one$/,
    );
    expect(lines).toContain('      "Litige commercial": TODO');
    // The API's own name needs no CHECK.
    expect(lines).toContain('      fraud: fraud');
    const check = draft.checks.find((item) => item.field === 'shared.dispute.reason."Non reçu"');
    expect(lines[(check?.line ?? 0) - 1]).toContain('# CHECK: French "non reçu"');
    expect(draft.todos.filter((todo) => todo.field === 'shared.dispute.reason').map((todo) => todo.message)).toEqual([
      'column "Motif": write the dispute.reason value of "Counterfeit", "Litige commercial" in its enum',
    ]);
  });

  it('a column of reason labels under a header no vocabulary knows is the reason, by its values', () => {
    expect(isReasonColumn(['Ware nicht erhalten', 'Doppelte Abbuchung', 'Sonstiges'])).toBe(true);
    // Codes alone could be anything: "FR" is France too.
    expect(isReasonColumn(['FR', 'DUP'])).toBe(false);
    const draft = draftOf(
      ['Kategorie'],
      [['Ware nicht erhalten'], ['Ware nicht erhalten'], ['Doppelte Abbuchung'], ['Doppelte Abbuchung']],
    );
    expect(draft.decisions.find((decision) => decision.subject === 'shared.dispute.reason')).toEqual({
      subject: 'shared.dispute.reason',
      decision: 'column "Kategorie"',
      confidence: 'medium',
    });
  });
});
