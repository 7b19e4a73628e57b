import { ApiUsageError, apiMessage } from '../api/errors.js';
import type { ParamValues } from '../api/param-spec.js';

/**
 * ApiBase::requireMaxOneParameter: a parameter counts as given unless null or false (an
 * empty string counts); names are listed as `<var>` items in the module's order of its parameters
 * (array_intersect keeps the order of `$params`, not of the names asked about). The error names
 * the module that checks (`module`: its path, as ApiBase::dieWithError gives it).
 */
export function requireMaxOneParameter(module: string, prefix: string, values: ParamValues, names: readonly string[]): void {
  const given = Object.keys(values).filter((n) => names.includes(n) && values[n] !== null && values[n] !== undefined && values[n] !== false);
  if (given.length > 1) {
    throw new ApiUsageError(
      apiMessage('invalidparammix', 'apierror-invalidparammix', [
        { list: given.map((n) => `<var>${prefix}${n}</var>`) },
        given.length,
      ]),
      module,
    );
  }
}
