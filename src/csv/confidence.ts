/** How sure a guess is: `high` needs no look, `medium` deserves one, `low` is a hint. */
export type Confidence = 'high' | 'medium' | 'low';
