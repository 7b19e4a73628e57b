/**
 * Values of an answer that never change once made, marked so that the printer (output/json.ts)
 * encodes each once per printing variant and splices the cached text in wherever the value
 * appears: debuginfo's `includes` list, and a list's rows (modules/list-support.ts showRows).
 * A marked value must not be changed after it is marked (rows are frozen besides).
 */

/** Values whose encodings are cached. */
const frozen = new WeakSet<object>();
/** Objects and lists that hold frozen values (directly or deeper): printed member by member. */
const holding = new WeakSet<object>();

/**
 * Marks `value` (an object or array that will never be changed) so that its encodings are cached
 * and reused. Returns the same value.
 */
export function frozenJson<T extends object>(value: T): T {
  frozen.add(value);
  return value;
}

/**
 * Marks an object or a list as holding frozen values (directly or deeper): the encoder prints it
 * member by member, reusing their cached encodings. Returns the same value.
 */
export function withFrozenMembers<T extends object>(value: T): T {
  holding.add(value);
  return value;
}

/** Whether `value` was marked with frozenJson. */
export function isFrozenJson(value: object): boolean {
  return frozen.has(value);
}

/** Whether `value` was marked with withFrozenMembers. */
export function holdsFrozen(value: object): boolean {
  return holding.has(value);
}
