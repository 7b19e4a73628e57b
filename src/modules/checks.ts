import { ApiUsageError, apiMessage } from '../api/errors.js';
import type { ParamValues } from '../api/param-spec.js';

/**
 * ApiBase::requireMaxOneParameter: a parameter counts as given unless null or false (an
 * empty string counts); names are listed in the order the module declares its parameters
 * (array_intersect keeps the order of the module's parameters, not of the names it is given:
 * logevents' "lenamespace" and "leprefix", 1.39 and 1.43), as `<var>` items.
 */
export function requireMaxOneParameter(prefix: string, values: ParamValues, names: readonly string[]): void {
  const given = Object.keys(values).filter((n) => names.includes(n) && values[n] !== null && values[n] !== undefined && values[n] !== false);
  if (given.length > 1) {
    throw new ApiUsageError(
      apiMessage('invalidparammix', 'apierror-invalidparammix', [
        { list: given.map((n) => `<var>${prefix}${n}</var>`) },
        given.length,
      ]),
    );
  }
}
