/**
 * Parameter declarations, as a module's getAllowedParams() declares them in MediaWiki.
 * Names are unprefixed; the module's prefix is added when reading.
 */
export type ParamSpec = (
  | { type: 'string'; multi?: boolean; required?: boolean; default?: string }
  | {
      type: 'enum';
      values: readonly string[];
      multi?: boolean;
      required?: boolean;
      default?: string;
      /** `*` alone means every value (ParamValidator::PARAM_ALL). */
      allowAll?: boolean;
      /** EnumDef::PARAM_DEPRECATED_VALUES: value → the message key of its deprecation warning. */
      deprecatedValues?: Readonly<Record<string, string>>;
    }
  | { type: 'integer'; multi?: boolean; default?: number; min?: number; max?: number; enforceRange?: boolean }
  | { type: 'limit'; default: number; max: number; highMax: number }
  | { type: 'timestamp'; default?: string }
  | { type: 'boolean' }
  | { type: 'user'; multi?: boolean; kinds: readonly UserKind[] }
  | { type: 'namespace'; multi?: boolean; extra?: readonly number[] }
) & {
  /** ParamValidator::PARAM_DEPRECATED: giving it warns (`paramvalidator-param-deprecated`). */
  deprecated?: boolean;
};

export type UserKind = 'name' | 'ip' | 'cidr' | 'id' | 'interwiki' | 'temp';

export type ParamValue = string | number | boolean | null | string[] | number[];

/** The validated values of a module's parameters, by unprefixed name. */
export type ParamValues = Record<string, ParamValue>;

/** MediaWiki's list sizes (ApiBase::LIMIT_*): value counts and result limits. */
export const LIMIT_SML1 = 50;
export const LIMIT_SML2 = 500;
const LIMIT_BIG1 = 500;
const LIMIT_BIG2 = 5000;

/** The standard `limit` declaration of list modules. */
export const LIMIT_PARAM = { type: 'limit', default: 10, max: LIMIT_BIG1, highMax: LIMIT_BIG2 } as const;

/** The `dir` declaration shared by list modules (`newer`/`older`, default older). */
export const DIR_PARAM = { type: 'enum', values: ['newer', 'older'], default: 'older' } as const;

/** Typed accessors for validated values: modules know their declarations. */
export const pv = {
  str: (v: ParamValue | undefined): string | null => (typeof v === 'string' ? v : null),
  num: (v: ParamValue | undefined): number | null => (typeof v === 'number' ? v : null),
  list: (v: ParamValue | undefined): string[] => (Array.isArray(v) ? v.map(String) : []),
  nums: (v: ParamValue | undefined): number[] => (Array.isArray(v) ? v.map(Number) : []),
  bool: (v: ParamValue | undefined): boolean => v === true,
};
