// The pages jobs draw of their files (the report's, track's, the review's) escape text this one way.

/** Every character HTML gives a meaning to, in text and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
