/** A word as a POSIX shell reads it: as is when plain, else single-quoted (the commands a page gives are pasted into a shell). */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
