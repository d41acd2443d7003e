/** A LIKE pattern (for `LIKE ? ESCAPE '\'`) matching text that contains `term` literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
