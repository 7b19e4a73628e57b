import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapePreText, nonHtmlUrl, prettyPageChunks, type PrettyPageOptions } from '../../../src/output/html-page.js';
import { phpUrlencode } from '../../../src/util/php-url.js';
import { makeProfile } from '../../../src/wiki/profile.js';
import { lang as L } from '../../support/lang.js';

/*
 * Real pages of MediaWiki 1.39.17 (curl against the live wiki: content language ru, site name
 * "Тестовая вики", $wgDebugToolbar on). REAL_ERROR_PAGE is `api.php?action=nonexistent` (format
 * absent → jsonfm) with only the debug toolbar's `mw.config.set({"debugInfo":…});` cut out.
 */
const REAL_ERROR_PAGE = "<!DOCTYPE html>\n<html class=\"client-nojs\" lang=\"ru\" dir=\"ltr\">\n<head>\n<meta charset=\"UTF-8\"/>\n<title>Результат MediaWiki API — Тестовая вики</title>\n<script>document.documentElement.className=\"client-js\";RLCONF={\"wgBreakFrames\":false,\"wgSeparatorTransformTable\":[\",\\t.\",\" \\t,\"],\"wgDigitTransformTable\":[\"\",\"\"],\"wgDefaultDateFormat\":\"dmy\",\"wgMonthNames\":[\"\",\"январь\",\"февраль\",\"март\",\"апрель\",\"май\",\"июнь\",\"июль\",\"август\",\"сентябрь\",\"октябрь\",\"ноябрь\",\"декабрь\"],\"wgRequestId\":\"91924dff483924d718b1034b\",\"wgCSPNonce\":false,\"wgCanonicalNamespace\":\"Special\",\"wgCanonicalSpecialPageName\":\"ApiHelp\",\"wgNamespaceNumber\":-1,\"wgPageName\":\"Служебная:ApiHelp\",\"wgTitle\":\"ApiHelp\",\"wgCurRevisionId\":0,\"wgRevisionId\":0,\"wgArticleId\":0,\"wgIsArticle\":false,\"wgIsRedirect\":false,\"wgAction\":\"view\",\"wgUserName\":null,\"wgUserGroups\":[\"*\"],\"wgCategories\":[],\"wgPageContentLanguage\":\"ru\",\"wgPageContentModel\":\"wikitext\",\"wgRelevantPageName\":\"Служебная:ApiHelp\",\"wgRelevantArticleId\":0,\"wgIsProbablyEditable\":false,\"wgRelevantPageIsProbablyEditable\":false};RLSTATE={\"site.styles\":\"ready\",\"user.styles\":\"ready\",\"user\":\"ready\",\"user.options\":\"loading\",\"mediawiki.apipretty\":\"ready\",\"mediawiki.skinning.interface\":\"ready\"};\nRLPAGEMODULES=[\"site\",\"mediawiki.page.ready\",\"mediawiki.debug\"];</script>\n<script>(RLQ=window.RLQ||[]).push(function(){mw.loader.implement(\"user.options@12s5i\",function($,jQuery,require,module){mw.user.tokens.set({\"patrolToken\":\"+\\\\\",\"watchToken\":\"+\\\\\",\"csrfToken\":\"+\\\\\"});});});</script>\n<link rel=\"stylesheet\" href=\"/wiki/load.php?lang=ru&amp;modules=mediawiki.apipretty%7Cmediawiki.skinning.interface&amp;only=styles&amp;skin=apioutput\"/>\n<script async=\"\" src=\"/wiki/load.php?lang=ru&amp;modules=startup&amp;only=scripts&amp;raw=1&amp;skin=apioutput\"></script>\n<meta name=\"generator\" content=\"MediaWiki 1.39.17\"/>\n<meta name=\"robots\" content=\"noindex,nofollow\"/>\n<meta name=\"format-detection\" content=\"telephone=no\"/>\n<meta name=\"viewport\" content=\"width=1000\"/>\n<link rel=\"icon\" href=\"/favicon.ico\"/>\n<link rel=\"search\" type=\"application/opensearchdescription+xml\" href=\"/wiki/opensearch_desc.php\" title=\"Тестовая вики (ru)\"/>\n<link rel=\"EditURI\" type=\"application/rsd+xml\" href=\"http://127.0.0.1:8094/wiki/api.php?action=rsd\"/>\n<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Тестовая вики — Atom-лента\" href=\"/wiki/index.php?title=%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%A1%D0%B2%D0%B5%D0%B6%D0%B8%D0%B5_%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B8&amp;feed=atom\"/>\n</head>\n<body class=\"mediawiki ltr sitedir-ltr mw-hide-empty-elt ns--1 ns-special mw-special-ApiHelp page-Служебная_ApiHelp rootpage-Служебная_ApiHelp skin-apioutput action-view\"><div class=\"mw-body\" role=\"main\">\n\t<h1 id=\"firstHeading\">Результат MediaWiki API</h1>\n\t<div class=\"mw-body-content\">\n\t\t<div id=\"mw-content-text\" class=\"mw-body-content\"><div class=\"api-pretty-header\"><p>Это HTML-представление формата JSON. HTML хорош для отладки, но неудобен для практического применения.\n</p><p>Укажите параметр <var>format</var> для изменения формата вывода. Для отображения не-HTML-представления формата JSON, присвойте <a rel=\"nofollow\" class=\"external text\" href=\"http://127.0.0.1:8094/wiki/api.php?action=nonexistent&amp;format=json\"><kbd>format=json</kbd></a>.\n</p><p>См. <a href=\"https://www.mediawiki.org/wiki/API\" class=\"extiw\" title=\"mw:API\">полную документацию</a> или <a href=\"/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:ApiHelp/main\" title=\"Служебная:ApiHelp/main\">справку API</a> для получения дополнительной информации.\n</p></div><pre class=\"api-pretty-content\">{\n    \"error\": {\n        \"code\": \"badvalue\",\n        \"info\": \"Unrecognized value for parameter \\\"action\\\": nonexistent.\",\n        \"*\": \"See http://127.0.0.1:8094/wiki/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &amp;lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&amp;gt; for notice of API deprecations and breaking changes.\"\n    }\n}</pre>\n<div class=\"printfooter\" data-nosnippet=\"\">Источник — <a dir=\"ltr\" href=\"http://127.0.0.1:8094/wiki/index.php/Служебная:ApiHelp\">http://127.0.0.1:8094/wiki/index.php/Служебная:ApiHelp</a></div></div>\n\t</div>\n</div>\n<script>(RLQ=window.RLQ||[]).push(function(){mw.log.warn(\"This page is using the deprecated ResourceLoader module \\\"mediawiki.skinning.interface\\\".\\n[1.37] The use of the `content` feature with ResourceLoaderSkinModule is deprecated. Use `content-media` instead. [1.37] The use of the `legacy` feature with ResourceLoaderSkinModule is deprecated(T89981) and is a NOOP since 1.39 (T304325). This should be urgently omited to retain compatibility with future MediaWiki versionsMore information can be found at [[mw:Manual:ResourceLoaderSkinModule]]. \");mw.config.set({\"wgBackendResponseTime\":68});});</script>\n</body>\n</html>";
const REAL_STATUS_405 = "<div class=\"api-pretty-header api-pretty-status\">Этот ответ будет возвращён HTTP статусом 405 Method Not Allowed.</div>";
const REAL_EN_HEAD = "<!DOCTYPE html>\n<html class=\"client-nojs\" lang=\"en\" dir=\"ltr\">\n<head>\n<meta charset=\"UTF-8\"/>\n<title>MediaWiki API result - Тестовая вики</title>\n<script>document.documentElement.className=\"client-js\";RLCONF={\"wgBreakFrames\":false,\"wgSeparatorTransformTable\":[\"\",\"\"],\"wgDigitTransformTable\":[\"\",\"\"],\"wgDefaultDateFormat\":\"dmy\",\"wgMonthNames\":[\"\",\"January\",\"February\",\"March\",\"April\",\"May\",\"June\",\"July\",\"August\",\"September\",\"October\",\"November\",\"December\"],\"wgRequestId\":\"e9436f9a1df67028cf5a0131\",\"wgCSPNonce\":false,\"wgCanonicalNamespace\":\"Special\",\"wgCanonicalSpecialPageName\":\"ApiHelp\",\"wgNamespaceNumber\":-1,\"wgPageName\":\"Служебная:ApiHelp\",\"wgTitle\":\"ApiHelp\",\"wgCurRevisionId\":0,\"wgRevisionId\":0,\"wgArticleId\":0,\"wgIsArticle\":false,\"wgIsRedirect\":false,\"wgAction\":\"view\",\"wgUserName\":null,\"wgUserGroups\":[\"*\"],\"wgCategories\":[],\"wgPageContentLanguage\":\"en\",\"wgPageContentModel\":\"wikitext\",\"wgRelevantPageName\":\"Служебная:ApiHelp\",\"wgRelevantArticleId\":0,\"wgIsProbablyEditable\":false,\"wgRelevantPageIsProbablyEditable\":false};RLSTATE={\"site.styles\":\"ready\",\"user.styles\":\"ready\",\"user\":\"ready\",\"user.options\":\"loading\",\"mediawiki.apipretty\":\"ready\",\"mediawiki.skinning.interface\":\"ready\"};\nRLPAGEMODULES=[\"site\",\"mediawiki.page.ready\",\"mediawiki.debug\"];</script>\n<script>(RLQ=window.RLQ||[]).push(function(){mw.loader.implement(\"user.options@12s5i\",function($,jQuery,require,module){mw.user.tokens.set({\"patrolToken\":\"+\\\\\",\"watchToken\":\"+\\\\\",\"csrfToken\":\"+\\\\\"});});});</script>\n<link rel=\"stylesheet\" href=\"/wiki/load.php?lang=en&amp;modules=mediawiki.apipretty%7Cmediawiki.skinning.interface&amp;only=styles&amp;skin=apioutput\"/>\n<script async=\"\" src=\"/wiki/load.php?lang=en&amp;modules=startup&amp;only=scripts&amp;raw=1&amp;skin=apioutput\"></script>\n<meta name=\"generator\" content=\"MediaWiki 1.39.17\"/>\n<meta name=\"robots\" content=\"noindex,nofollow\"/>\n<meta name=\"format-detection\" content=\"telephone=no\"/>\n<meta name=\"viewport\" content=\"width=1000\"/>\n<link rel=\"icon\" href=\"/favicon.ico\"/>\n<link rel=\"search\" type=\"application/opensearchdescription+xml\" href=\"/wiki/opensearch_desc.php\" title=\"Тестовая вики (ru)\"/>\n<link rel=\"EditURI\" type=\"application/rsd+xml\" href=\"http://127.0.0.1:8094/wiki/api.php?action=rsd\"/>\n<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Тестовая вики Atom feed\" href=\"/wiki/index.php?title=%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%A1%D0%B2%D0%B5%D0%B6%D0%B8%D0%B5_%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B8&amp;feed=atom\"/>\n</head>";
const REAL_EN_HEADER = "<div class=\"api-pretty-header\"><p>This is the HTML representation of the JSON format. HTML is good for debugging, but is unsuitable for application use.\n</p><p>Specify the <var>format</var> parameter to change the output format. To see the non-HTML representation of the JSON format, set <a rel=\"nofollow\" class=\"external text\" href=\"http://127.0.0.1:8094/wiki/api.php?action=query&amp;list=logevents&amp;lelimit=1&amp;uselang=en&amp;format=json\"><kbd>format=json</kbd></a>.\n</p><p>See the <a href=\"https://www.mediawiki.org/wiki/API\" class=\"extiw\" title=\"mw:API\">complete documentation</a>, or the <a href=\"/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:ApiHelp/main\" title=\"Служебная:ApiHelp/main\">API help</a> for more information.\n</p></div>";
const REAL_EN_FOOTER = "<div class=\"printfooter\" data-nosnippet=\"\">Retrieved from \"<a dir=\"ltr\" href=\"http://127.0.0.1:8094/wiki/index.php/Служебная:ApiHelp\">http://127.0.0.1:8094/wiki/index.php/Служебная:ApiHelp</a>\"</div>";
const REAL_POST_HEADER = "<div class=\"api-pretty-header\"><p>Это HTML-представление формата JSON. HTML хорош для отладки, но неудобен для практического применения.\n</p><p>Укажите параметр <var>format</var> для изменения формата вывода. Для отображения не-HTML-представления формата JSON, присвойте <kbd>format=json</kbd>.\n</p><p>См. <a href=\"https://www.mediawiki.org/wiki/Special:MyLanguage/API\" class=\"extiw\" title=\"mw:Special:MyLanguage/API\">полную документацию</a> или <a href=\"/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:ApiHelp/main\" title=\"Служебная:ApiHelp/main\">справку API</a> для получения дополнительной информации.\n</p></div>";
const REAL_FV2_LINK = "<a rel=\"nofollow\" class=\"external text\" href=\"http://127.0.0.1:8094/wiki/api.php?action=query&amp;list=logevents&amp;lelimit=1&amp;format=json&amp;formatversion=2&amp;x=a+b+c%2Fd%C3%A9&amp;y=%3C%22%3E\">";

const profile = makeProfile({ version: '1.39.17', server: 'http://127.0.0.1:8094' });
/** The page as the client reads it. */
const renderPrettyPage = (opts: PrettyPageOptions): string => Buffer.concat(prettyPageChunks(opts)).toString('utf8');
const ERROR_JSON = `{
    "error": {
        "code": "badvalue",
        "info": "Unrecognized value for parameter \\"action\\": nonexistent.",
        "*": "See http://127.0.0.1:8094/wiki/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes."
    }
}`;

describe('renderPrettyPage', () => {
  it('reproduces the real page byte for byte (toolbar data aside)', () => {
    const page = renderPrettyPage({
      profile,
      userLang: L('ru', profile.version),
      json: ERROR_JSON,
      requestUrl: '/wiki/api.php?action=nonexistent',
      method: 'GET',
      formatName: 'json',
      requestId: '91924dff483924d718b1034b',
      backendResponseTimeMs: 68,
    });
    expect(page).toBe(REAL_ERROR_PAGE);
  });

  it('only & and < are escaped in the pre', () => {
    expect(escapePreText('<a href="x">&amp;</a> > "q"')).toBe('&lt;a href="x">&amp;amp;&lt;/a> > "q"');
  });

  it('status line for a stored non-200 status (405 for PUT)', () => {
    const page = renderPrettyPage({ profile, userLang: L('ru', profile.version), json: '{}', requestUrl: '/wiki/api.php?action=query&list=logevents&lelimit=1', method: 'PUT', status: 405, formatName: 'json' });
    expect(page).toContain(`</p></div>${REAL_STATUS_405}<pre class="api-pretty-content">{}</pre>`);
    const en = renderPrettyPage({ profile, userLang: L('en', profile.version), json: '{}', requestUrl: '/wiki/api.php', method: 'PUT', status: 405, formatName: 'json' });
    expect(en).toContain('<div class="api-pretty-header api-pretty-status">This response would be returned with HTTP status 405 Method Not Allowed.</div>');
  });

  it('uselang=en: user-language head, header, footer; content-language names stay', () => {
    const page = renderPrettyPage({
      profile,
      userLang: L('en', profile.version),
      json: '{}',
      requestUrl: '/wiki/api.php?action=query&list=logevents&lelimit=1&uselang=en',
      method: 'GET',
      formatName: 'json',
      requestId: 'e9436f9a1df67028cf5a0131',
    });
    expect(page.startsWith(REAL_EN_HEAD)).toBe(true);
    expect(page).toContain(REAL_EN_HEADER);
    expect(page).toContain(REAL_EN_FOOTER);
  });

  it('POST: the header without the link, [[mw:Special:MyLanguage/API]]', () => {
    const page = renderPrettyPage({ profile, userLang: L('ru', profile.version), json: '{}', requestUrl: '/wiki/api.php', method: 'POST', formatName: 'json' });
    expect(page).toContain(REAL_POST_HEADER);
  });

  it('the format=json link: title dropped, format replaced in place, PHP urlencode', () => {
    const url = '/wiki/api.php?action=query&list=logevents&lelimit=1&format=jsonfm&formatversion=2&title=Foo&x=a%20b+c%2Fd%C3%A9&y=%3C%22%3E';
    const page = renderPrettyPage({ profile, userLang: L('ru', profile.version), json: '{}', requestUrl: url, method: 'GET', formatName: 'json' });
    expect(page).toContain(REAL_FV2_LINK);
    expect(nonHtmlUrl(profile, '/wiki/api.php?action=query&list=logevents', 'json')).toBe(
      'http://127.0.0.1:8094/wiki/api.php?action=query&list=logevents&format=json',
    );
    expect(nonHtmlUrl(profile, '/wiki/api.php?a.b=1&a=2&a=3&c[]=x&c[]=y&flag', 'json')).toBe(
      'http://127.0.0.1:8094/wiki/api.php?a_b=1&a=3&c%5B0%5D=x&c%5B1%5D=y&flag=&format=json',
    );
    expect(phpUrlencode("a b~*'()!é/")).toBe('a+b%7E%2A%27%28%29%21%C3%A9%2F');
  });

  it('rawfm: the only-HTML header', () => {
    const page = renderPrettyPage({ profile, userLang: L('ru', profile.version), json: '{}', requestUrl: '/wiki/api.php?format=rawfm', method: 'GET', formatName: 'raw' });
    expect(page).toContain(
      '<div class="api-pretty-header"><p>Это HTML-представление для отладки, не рассчитанное на практическое применение.\n</p><p>См. <a href="https://www.mediawiki.org/wiki/Special:MyLanguage/API" class="extiw" title="mw:Special:MyLanguage/API">полную документацию</a> или <a href="/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:ApiHelp/main" title="Служебная:ApiHelp/main">справку API</a> для получения дополнительной информации.\n</p></div>',
    );
  });

  it('debug toolbar data: ResourceLoader JSON (\\u0026, \\u003C) with the getDebugHTML log entry', () => {
    const page = renderPrettyPage({
      profile,
      userLang: L('ru', profile.version),
      json: '{}',
      requestUrl: '/wiki/api.php?action=query&list=logevents',
      method: 'GET',
      formatName: 'json',
      backendResponseTimeMs: 188,
      debugInfo: {
        mwVersion: '1.39.17',
        log: [{ msg: 'MWDebug output complete', type: 'log', caller: 'MWDebug::appendDebugInfoToApiResult' }],
        debugLog: ['\n\nStart request GET /wiki/api.php?action=query&list=logevents\nIP: 127.0.0.1'],
        memory: '<1,44 МБ>',
      },
    });
    expect(page).toContain(
      '<script>(RLQ=window.RLQ||[]).push(function(){mw.config.set({"debugInfo":{"mwVersion":"1.39.17","log":[{"msg":"MWDebug output complete","type":"log","caller":"MWDebug::appendDebugInfoToApiResult"},{"msg":"MWDebug output complete","type":"log","caller":"MWDebug::getDebugHTML"}],"debugLog":["\\n\\nStart request GET /wiki/api.php?action=query\\u0026list=logevents\\nIP: 127.0.0.1"],"memory":"\\u003C1,44 МБ\\u003E"}});mw.log.warn(',
    );
    expect(page.endsWith('mw.config.set({"wgBackendResponseTime":188});});</script>\n</body>\n</html>')).toBe(true);
  });

  it('1.43: the real 1.43.9 page around the content, byte for byte (HTML5 void tags, safe mode, no site or user modules)', () => {
    // html-page-143.json: `npm run generate html-page-143`
    const real = JSON.parse(readFileSync(join(import.meta.dirname, 'html-page-143.json'), 'utf8')) as { requestId: string; head: string; foot: string; last: string };
    const profile = makeProfile({ version: '1.43.9', language: 'ru', siteName: 'Тестовая вики', server: 'http://127.0.0.1:8089', scriptPath: '/wiki', debugInfo: true });
    const page = renderPrettyPage({ profile, userLang: L('ru', profile.version), json: '{}', requestUrl: '/wiki/api.php?action=query&list=protectedtitles&ptlimit=1&format=jsonfm', method: 'GET', formatName: 'json', requestId: real.requestId, backendResponseTimeMs: 100, debugInfo: { mwVersion: '1.43.9', log: [] } });
    expect(page.slice(0, page.indexOf('<pre class="api-pretty-content">'))).toBe(real.head);
    const end = page.slice(page.indexOf('</pre>'));
    expect(end.slice(0, end.indexOf('<script>(RLQ'))).toBe(real.foot);
    expect(end.slice(end.indexOf('mw.log.warn'))).toBe(real.last);
  });
});
