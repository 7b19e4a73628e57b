import { ApiUsageError, apiMessage } from '../api/errors.js';
import { pv } from '../api/param-spec.js';
import type { QueryModule } from '../api/query-module.js';
import type { JsonObject } from '../api/result.js';
import { toIso } from '../util/timestamp.js';
import { namespaceAliases, namespaceName } from '../wiki/namespaces.js';
import { contentLanguage } from '../i18n/language.js';
import { message } from '../i18n/message.js';
import { atLeast, type WikiProfile } from '../wiki/profile.js';
import { wfUrlencode } from '../util/php-url.js';
import { siteInfoFromRecordings } from './recorded-meta-answer.js';
import { messageCacheLoad, type DebugFacts, type DebugInput } from '../api/debug.js';

const PROPS_139 = ['general', 'namespaces', 'namespacealiases', 'specialpagealiases', 'magicwords', 'interwikimap', 'dbrepllag', 'statistics', 'usergroups', 'libraries', 'extensions', 'fileextensions', 'rightsinfo', 'restrictions', 'languages', 'languagevariants', 'skins', 'extensiontags', 'functionhooks', 'showhooks', 'variables', 'protocols', 'defaultoptions', 'uploaddialog'];
/** ApiQuerySiteinfo's siprop in 1.43: autocreatetempuser and clientlibraries after usergroups, autopromote and autopromoteonce last (1.39 warns about all four as unrecognized). */
const PROPS_143 = [...PROPS_139.slice(0, 9), 'autocreatetempuser', 'clientlibraries', ...PROPS_139.slice(9), 'autopromote', 'autopromoteonce'];

const CANONICAL = ['Media', 'Special', '', 'Talk', 'User', 'User talk', 'Project', 'Project talk', 'File', 'File talk', 'MediaWiki', 'MediaWiki talk', 'Template', 'Template talk', 'Help', 'Help talk', 'Category', 'Category talk'];
/** Namespaces with subpages on a default install ($wgNamespacesWithSubpages). */
const SUBPAGES = new Set([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15]);

/**
 * meta=siteinfo from the wiki's profile: `general` (the fields a default MediaWiki 1.39 install
 * shows), `namespaces` and `namespacealiases`. Clients ask for these when they connect (mwn,
 * mwclient); a recording of the real wiki's answer always takes precedence.
 */
export const siteinfo: QueryModule = {
  name: 'siteinfo',
  prefix: 'si',
  group: 'meta',
  cacheMode: 'public',
  debug: siteinfoDebug,
  key: { sets: ['siprop'] },
  params: (profile) => ({
    prop: { type: 'enum', multi: true, values: atLeast(profile, '1.43') ? PROPS_143 : PROPS_139, default: 'general' },
    filteriw: { type: 'enum', values: ['local', '!local'] },
    showalldb: { type: 'boolean' },
    numberingroup: { type: 'boolean' },
    inlanguagecode: { type: 'string' },
  }),
  execute(ctx, v) {
    const props = pv.list(v['prop']);
    // Parts are added as they are made: a request that asks for none (`siprop=bogus`) adds no `query`.
    const q: JsonObject = {};
    // A replayed wiki's parts as recorded (each part nobody recorded is flagged, then built in).
    const recorded = siteInfoFromRecordings(ctx, props, { filteriw: pv.str(v['filteriw']), showalldb: v['showalldb'] === true, numberingroup: v['numberingroup'] === true, inlanguagecode: pv.str(v['inlanguagecode']) });
    const nsctx = { lang: ctx.profile.language, metaNamespace: ctx.profile.siteName.replace(/ /g, '_'), version: ctx.profile.version };
    for (const p of props) {
      // appendDbReplLagInfo: every server's lag is shown only with $wgShowHostnames (off, as on the captured wikis).
      if (p === 'dbrepllag' && v['showalldb'] === true) throw new ApiUsageError(apiMessage('includeAllDenied', 'apierror-siteinfo-includealldenied'));
      if (recorded?.[p] !== undefined) q[p] = recorded[p]!;
      else if (p === 'general') {
        // The variants of a content language with a LanguageConverter are not known here.
        if (contentLanguage(ctx.profile).has('variants')) ctx.unknown(`i18n.${ctx.profile.language}.variants`);
        q['general'] = general(ctx.profile, ctx.now);
      }
      else if (p === 'namespaces') {
        const out: JsonObject = {};
        for (let id = -2; id <= 15; id++) {
          const ns: JsonObject = { id, case: 'first-letter', name: namespaceName(id, nsctx), subpages: SUBPAGES.has(id) };
          if (id !== 0) ns['canonical'] = CANONICAL[id + 2]!;
          ns['content'] = id === 0;
          ns['nonincludable'] = false;
          if (id === 8) ns['namespaceprotection'] = 'editinterface';
          // Integer-like keys are marked so that -2 and -1 stay first (see util/ordered-json.ts).
          out[id < 0 ? String(id) : `\u0001${id}`] = ns;
        }
        q['namespaces'] = out;
      } else if (p === 'namespacealiases') {
        // ApiQuerySiteinfo::appendNamespaceAliases: PHP's sort() of [id, alias] pairs
        const bytes = (s: string) => Buffer.from(s);
        q['namespacealiases'] = namespaceAliases(nsctx).sort((a, b) => a.id - b.id || Buffer.compare(bytes(a.alias), bytes(b.alias)));
      } else if (recorded === null) ctx.unknown(`siteinfo.${p}`); // not built in, and fixtures do not hold it (with recordings, flagged above)
    }
    if (Object.keys(q).length > 0) Object.assign(ctx.result.query(), q);
    return {};
  },
};

function general(profile: WikiProfile, now: number): JsonObject {
  const content = contentLanguage(profile);
  const mainpage = message(content, 'mainpage').replace(/_/g, ' ');
  const host = profile.server.replace(/^https?:\/\//, '').replace(/:\d+$/, '');
  return {
    mainpage,
    base: `${profile.server}${profile.scriptPath}/index.php/${wfUrlencode(mainpage.replace(/ /g, '_'))}`,
    sitename: profile.siteName,
    mainpageisdomainroot: false,
    logo: `${profile.server}${profile.scriptPath}/resources/assets/change-your-logo.svg`,
    generator: `MediaWiki ${profile.version}`,
    phpversion: profile.runtimeVersion,
    phpsapi: 'cli-server',
    dbtype: 'sqlite',
    dbversion: '3.40.1',
    imagewhitelistenabled: false,
    langconversion: true,
    linkconversion: true,
    titleconversion: true,
    linkprefixcharset: '',
    linkprefix: '',
    linktrail: content.record.linkTrail,
    legaltitlechars: " %!\"$&'()*,\\-.\\/0-9:;=?@A-Z\\\\^_`a-z~\\x80-\\xFF+",
    // $wgInvalidUsernameCharacters: '@:>' in 1.39, '@:>=' in 1.43 (both read from the real wikis)
    invalidusernamechars: atLeast(profile, '1.43') ? '@:>=' : '@:>',
    allunicodefixes: false,
    fixarabicunicode: true,
    fixmalayalamunicode: true,
    case: 'first-letter',
    lang: profile.language,
    fallback: content.record.fallback.map((code) => ({ code })),
    rtl: content.rtl,
    fallback8bitEncoding: content.record.fallback8bitEncoding,
    readonly: false,
    writeapi: true,
    maxarticlesize: 2097152,
    timezone: 'UTC',
    timeoffset: 0,
    articlepath: `${profile.scriptPath}/index.php/$1`,
    scriptpath: profile.scriptPath,
    script: `${profile.scriptPath}/index.php`,
    variantarticlepath: false,
    server: profile.server,
    servername: host,
    wikiid: profile.cookiePrefix,
    time: toIso(now),
    // Install-specific settings, as the test wiki of this project has them (uploads on).
    misermode: false,
    uploadsenabled: true,
    maxuploadsize: 104857600,
    minuploadchunksize: 1024,
    galleryoptions: { imagesPerRow: 0, imageWidth: 120, imageHeight: 120, captionLength: true, showBytes: true, showDimensions: true, mode: 'traditional' },
    thumblimits: { 0: 120, 1: 150, 2: 180, 3: 200, 4: 250, 5: 300 },
    imagelimits: { 0: { width: 320, height: 240 }, 1: { width: 640, height: 480 }, 2: { width: 800, height: 600 }, 3: { width: 1024, height: 768 }, 4: { width: 1280, height: 1024 }, 5: { width: 2560, height: 2048 } },
    favicon: `${profile.server}/favicon.ico`,
    centralidlookupprovider: 'local',
    allcentralidlookupproviders: ['local'],
    interwikimagic: true,
    magiclinks: { ISBN: false, PMID: false, RFC: false },
    categorycollation: 'uppercase',
    nofollowlinks: true,
    nofollownsexceptions: [],
    nofollowdomainexceptions: ['mediawiki.org'],
    externallinktarget: false,
  };
}

/**
 * ApiQuerySiteinfo's trace (siprop=general): the parser factory, the content language's messages
 * loaded from the database, GitInfo looked up for the install path, the read-only check of the
 * DB server (1.43 keeps it in the process cache, filled when the connection opened).
 */
function siteinfoDebug({ profile }: DebugInput): DebugFacts {
  const v143 = atLeast(profile, '1.43');
  const root = profile.installPath.replace(/\/+$/, '');
  return {
    includes: 'siteinfo',
    entries: [
      v143 ? 'MediaWiki\\Parser\\ParserFactory: using default preprocessor' : 'ParserFactory: using default preprocessor',
      ...messageCacheLoad(profile, profile.language, { content: true, first: true, reuse: false }),
      { reuse: true },
      `[gitinfo] Candidate cacheFile=${root}/gitinfo.json for ${root}`,
      `[gitinfo] Cache incomplete for ${root}`,
      ...(v143
        ? [`[objectcache] getWithSetCallback(global:rdbms-server-readonly:${profile.dbServer}): process cache hit`]
        : [{ reuse: true as const }, '[objectcache] fetchOrRegenerate(global:rdbms-server-readonly:localhost:wikidb:): miss, new value computed']),
    ],
  };
}
