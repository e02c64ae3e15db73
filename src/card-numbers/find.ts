import { networkOf, passesLuhn } from './networks.js';

/** A card number found in a text: where it stands and its digits. */
export interface FoundCardNumber {
  readonly start: number;
  readonly end: number;
  readonly digits: string;
  readonly network: string;
}

/**
 * Runs of digit groups: digits, with single spaces or dashes between groups. A run is bounded by
 * anything else, so a card number is never taken from the middle of a longer number (an ARN's 23
 * digits hold no card number).
 */
const digitRuns = /\d+(?:[ -]\d+)*/g;

/**
 * The card numbers in a text: 13 to 19 digits, Luhn-valid, in a network's issuer range, written
 * whole or in groups, alone in a cell or inside free text ("ma carte 4970 1010 0000 0012 a été
 * débitée deux fois"). Inside a run of groups ("le 12 4970 1010 0000 0012"), the longest number
 * made of whole groups is taken, so a date or count beside it does not hide it. Digits glued to a
 * letter or `_` belong to a word (an id, a hex string) and are not taken.
 */
export function findCardNumbers(text: string): FoundCardNumber[] {
  const found: FoundCardNumber[] = [];
  // Shorter than a card number, or no 13 digits in a row, groups allowed: nothing to look at (most
  // cells), without the scan below. The length alone settles most cells without a regex.
  if (text.length < 13 || !/(?:\d[ -]?){13}/.test(text)) return found;
  for (const run of text.matchAll(digitRuns)) {
    const groups = groupsOf(run[0], run.index);
    // A group glued to a letter or `_` is part of a word, not a number written on its own: an id
    // such as `event_06888b25bd4025633778900b` holds 13 digits in a row that pass as a card number.
    if (gluedBefore(text, run.index)) groups.shift();
    if (wordCharacter.test(text.charAt(run.index + run[0].length))) groups.pop();
    if (groups.reduce((sum, group) => sum + group.digits.length, 0) < 13) continue;
    found.push(...cardNumbersIn(groups));
  }
  return found;
}

/** What makes a word with digits beside it (a digit never stands beside a run: the run would take it). */
const wordCharacter = /[\p{L}\p{M}_]/u;

/**
 * Whether the run starting at `index` is glued to a word before it. A line break or tab escaped as
 * text (`\n`, `\r`, `\t`, as JSON and quoted messages write them) ends a word like the character
 * it stands for: a card number after it is a number of its own.
 */
function gluedBefore(text: string, index: number): boolean {
  const before = text.charAt(index - 1);
  if (!wordCharacter.test(before)) return false;
  return !(text.charAt(index - 2) === '\\' && /[nrtbfv]/.test(before));
}

interface Group {
  readonly start: number;
  readonly end: number;
  readonly digits: string;
}

function groupsOf(run: string, offset: number): Group[] {
  const groups: Group[] = [];
  for (const match of run.matchAll(/\d+/g))
    groups.push({ start: offset + match.index, end: offset + match.index + match[0].length, digits: match[0] });
  return groups;
}

/** Left to right, the longest card number made of whole groups at each place; its groups are then taken. */
function cardNumbersIn(groups: readonly Group[]): FoundCardNumber[] {
  const found: FoundCardNumber[] = [];
  let first = 0;
  while (first < groups.length) {
    const best = longestFrom(groups, first);
    if (best === undefined) {
      first++;
      continue;
    }
    found.push(best.number);
    first = best.next;
  }
  return found;
}

function longestFrom(groups: readonly Group[], first: number): { number: FoundCardNumber; next: number } | undefined {
  let digits = '';
  let best: { number: FoundCardNumber; next: number } | undefined;
  for (let last = first; last < groups.length; last++) {
    const group = groups[last]?.digits ?? '';
    digits += group;
    // Card numbers are written in groups of three or more (4-4-4-4, 4-6-5), the last maybe shorter;
    // runs of pairs are hex dumps, phone numbers, dates.
    if (group.length < 3 && last < groups.length - 1 && groups.length > 1) {
      if (digits.length >= 13) best = candidate(groups, first, last, digits) ?? best;
      break;
    }
    if (digits.length > 19) break;
    if (digits.length < 13) continue;
    best = candidate(groups, first, last, digits) ?? best;
  }
  return best;
}

function candidate(
  groups: readonly Group[],
  first: number,
  last: number,
  digits: string,
): { number: FoundCardNumber; next: number } | undefined {
  const network = networkOf(digits);
  if (network === undefined || !passesLuhn(digits)) return undefined;
  const start = groups[first]?.start ?? 0;
  const end = groups[last]?.end ?? start;
  return { number: { start, end, digits, network }, next: last + 1 };
}
