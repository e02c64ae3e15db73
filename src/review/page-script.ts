import { basics } from './page-script/basics.js';
import { controls } from './page-script/controls.js';
import { overview } from './page-script/overview.js';
import { rowForms } from './page-script/row-forms.js';

/**
 * The review page's one script, served as /review.js (no inline script: response-headers.ts): no build step, nothing fetched but the page's own API.
 * Plain DOM: every figure of the overview is a button that shows its rows; a row to fix is labelled
 * inputs, saved and re-checked on the server as the reviewer types (300 ms after the last key); any
 * other row is read-only. Text always goes in as text, never as HTML. Written in four parts, one
 * script in the page: each part uses the names the ones before it declare.
 */
export const pageScript = [basics, overview, rowForms, controls].join('');
