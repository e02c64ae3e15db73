import type { Page } from 'playwright-core';
import { expect, onTestFinished } from 'vitest';

/**
 * Fails the test if the page's Content-Security-Policy refused anything (Chromium tells it on the
 * console): a script, a style or a fetch the page needs, blocked, is a page that half works.
 */
export function refuseContentPolicyViolations(page: Page): readonly string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  onTestFinished(() => {
    expect(violations).toEqual([]);
  });
  return violations;
}
