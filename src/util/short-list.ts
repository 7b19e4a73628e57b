/** Items joined with commas, at most `max` of them, then `… (N in all)`: a line that names many things stays readable. */
export function shortList(items: readonly string[], max = 20): string {
  return items.length > max ? `${items.slice(0, max).join(', ')}, … (${items.length} in all)` : items.join(', ');
}
