import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../src/modules/index.js';

/**
 * The layering the README's "Architecture" section draws: each layer imports only layers below
 * it (and files of its own folder). Top to bottom; layers on one line are siblings and do not
 * import each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli', 'index'],
  ['workers'],
  ['server'],
  ['app'],
  ['engine'],
  ['replay', 'record'],
  ['options'],
  ['output', 'cassette', 'modules', 'faults'],
  ['api'],
  ['i18n'],
  ['wiki'],
  ['request'],
  ['util', 'pcre'],
];

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

/** `src/replay/x.ts` → `replay`; `src/engine.ts` → `engine`. */
function layerName(file: string): string {
  const rel = relative(SRC, file);
  const top = rel.split(/[\\/]/)[0]!;
  return top.replace(/\.ts$/, '');
}

function rank(layer: string): number {
  const i = LAYERS.findIndex((l) => l.includes(layer));
  if (i < 0) throw new Error(`src/${layer} is in no layer: add it to LAYERS (test/unit/layering.test.ts) and to the README's Architecture section`);
  return i;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The relative imports (and re-exports, dynamic imports) in a file's text, resolved to paths. */
function importsIn(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    out.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
  }
  return out;
}

/** The imports of a file (given its text) that run upward or between sibling layers, as lines. */
function violations(file: string, text: string): string[] {
  const from = layerName(file);
  const bad: string[] = [];
  for (const target of importsIn(file, text)) {
    if (!target.startsWith(SRC)) continue;
    const to = layerName(target);
    if (to !== from && rank(to) <= rank(from)) bad.push(`src/${relative(SRC, file)} → src/${relative(SRC, target)} (${from} may not import ${to})`);
  }
  return bad;
}

describe('layering (README, Architecture)', () => {
  const files = sources(SRC);

  it('every folder and top-level file of src is in a layer', () => {
    for (const f of files) expect(() => rank(layerName(f))).not.toThrow();
  });

  it('no import runs upward or between sibling layers', () => {
    expect(files.flatMap((f) => violations(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('names an upward import when there is one', () => {
    const probe = join(SRC, 'wiki', 'probe.ts');
    expect(violations(probe, "import type { ReplayEngine } from '../engine.js';\nimport { x } from './title.js';\n")).toEqual([
      'src/wiki/probe.ts → src/engine.ts (wiki may not import engine)',
    ]);
    expect(violations(join(SRC, 'output', 'probe.ts'), "export { y } from '../cassette/format.js';\n")).toEqual([
      'src/output/probe.ts → src/cassette/format.ts (output may not import cassette)',
    ]);
  });
});

/** Source text without comments (a comment may name anything). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/**
 * Where a list's name may stand in code outside src/modules/ (its own file and the registry): MediaWiki's
 * own list of module names, and the includes list debuginfo falls back on for a module without one.
 */
const NAMES_A_LIST_ON_PURPOSE = new Set(['api/query.ts', 'output/debuginfo.ts']);

describe('nothing reaches upward unseen', () => {
  const files = sources(SRC);

  it('no file installs a getter on another\'s object (a read that would run code from a layer above)', () => {
    const found = files.filter((f) => /\bdefineProperty\s*\(|__defineGetter__/.test(code(readFileSync(f, 'utf8'))));
    expect(found.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('only a list module\'s own file (and the registry) names it: every other part asks the registry', () => {
    const names = MODULES.query.list.map((l) => l.name);
    expect(names.length).toBeGreaterThan(3);
    const naming = (f: string) => names.filter((n) => new RegExp(`['"\`]${n}\\b`).test(code(readFileSync(f, 'utf8'))));
    const found = files
      .filter((f) => !relative(SRC, f).startsWith(`modules${sep}`) && !NAMES_A_LIST_ON_PURPOSE.has(relative(SRC, f).split(sep).join('/')))
      .flatMap((f) => naming(f).map((n) => `src/${relative(SRC, f)} names ${n}`));
    expect(found).toEqual([]);
  });
});
