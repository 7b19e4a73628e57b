/** Questions asked of both the live wiki and wikitape in the differential tests. */
const B = 'action=query&format=json';
const EL = `${B}&prop=extlinks&titles=Список ссылок|Delta|Beta|Gamma|Alpha&ellimit=max&formatversion=2`;

/**
 * Parameter types, values and warnings as each version's ParamValidator and ApiMain treat them
 * (issue 21): assoc entries in formatversion 1, elquery's LinkFilter rules, the user type,
 * deprecations, the error printer's failure, errorformat=raw's lists, the modules errors name.
 */
const VALIDATOR_QUESTIONS = [
  `${B}&list=blocks&bkprop=flags&bklimit=max`, `${B}&list=logevents&lelimit=max&leprop=ids`,
  `${EL}&elquery=example.org/*`, `${EL}&elquery=*.example.org/a*`, `${EL}&elquery=*.example.org/page`, `${EL}&elquery=1.2.3.*`, `${EL}&elquery=`,
  `${EL}&elquery=[::1]`, `${EL}&elquery=example.org/page/%D0%A1`, `${EL}&elprotocol=mailto&elquery=info1@example.org`, `${EL}&elprotocol=https&elquery=*.org/`,
  `${EL}&elprotocol=mailto&elquery=*@пример.рф`, `${EL}&elquery=docs.example.io/page/Delta/2?q=2`,
  `${B}&list=logevents&lelimit=2&leuser=Foo:bar`, `${B}&list=logevents&lelimit=2&leuser=300.300.300.300`, `${B}&list=logevents&lelimit=2&leuser=a>b`,
  `${B}&list=logevents&lelimit=2&leuser=1.2.3.4-5.6.7.8`, `${B}&list=blocks&bkusers=Foo:bar`, `${B}&list=blocks&bkusers=a>b`,
  `${B}&meta=siteinfo&siprop=bogus`, `${B}&meta=siteinfo&siprop=`,
  `${B}&list=logevents&lelimit=1&formatversion=3`, `${B}&list=logevents&lelimit=1&formatversion=3&foo=1`, `${B}&list=logevents&lelimit=1&formatversion=3&errorformat=raw`,
  `${B}&list=logevents&ledir=up&formatversion=3&callback=cb&errorformat=plaintext&uselang=en`, 'action=bogus&format=json&formatversion=3&errorformat=raw',
  'action=parse&format=json&summary=x&title=Foo', 'action=parse&format=json&summary=x&title=Foo&errorformat=raw',
  'action=parse&format=json&summary=x&prop=headitems&generatexml=1&disablepp=1&effectivelanglinks=1&errorformat=raw',
  'action=parse&format=json&summary=x&prop=categorieshtml|subtitle|modules|jsconfigvars|encodedjsconfigvars|indicators|parsetree|parsewarningshtml|headitems',
  'action=parse&format=json&formatversion=2&summary=x&prop=modules', 'action=parse&format=json&formatversion=2&summary=x&prop=wikitext&onlypst=1', 'action=parse&format=json&summary=x&title=a[b&errorformat=raw',
  `${B}&list=logevents&lelimit=1&foo=1&bar=2&errorformat=raw`, `${B}&foo=1&list=logevents&lelimit=1&errorformat=raw&formatversion=2`,
  `${B}&list=logevents|bogus&foo=1&bar=2&letype=move`,
  `${B}&list=blocks&bkshow=account|!account&errorformat=raw`, `${B}&list=logevents&lecontinue=garbage&errorformat=raw`, `${B}&prop=extlinks&titles=Alpha&pageids=1&errorformat=raw`,
  `${B}&list=protectedtitles&ptnamespace=*&ptprop=level`, `${B}&list=logevents&lenamespace=abc&errorformat=raw`, `${B}&list=blocks&bkprop=id&bkids=0|-1`,
  `${B}&list=blocks&bkprop=id&bkids=${Array.from({ length: 51 }, (_, i) => i + 1).join('|')}`, `${B}&list=protectedtitles&ptlimit=1&smaxage=-1`, 'action=tokens&format=json',
  `${B}&list=logevents&lelimit=1&lestart=0`, `${B}&list=logevents&lelimit=1&leprop=ids|bogus|bogus2|title`, `${B}&list=logevents&lelimit=abc`,
];
export const QUESTIONS = [
  `${B}&list=logevents`, `${B}&list=logevents&formatversion=2`, `${B}&list=logevents&lelimit=5`, `${B}&list=logevents&ledir=newer&lelimit=3`,
  `${B}&list=logevents&letype=block`, `${B}&list=logevents&letype=block&formatversion=2`, `${B}&list=logevents&letype=upload`,
  `${B}&list=logevents&leaction=move/move`, `${B}&list=logevents&leuser=Admin&lelimit=3`, `${B}&list=logevents&letitle=Москва`,
  `${B}&list=logevents&lenamespace=6&lelimit=2`, `${B}&list=logevents&leprop=ids|title|type|user|userid|timestamp|comment|details|tags&lelimit=4`,
  `${B}&list=logevents&lelimit=max&letype=protect`, `${B}&list=logevents&lelimit=0&letype=move`, `${B}&list=logevents&lelimit=5000&letype=move`,
  `${B}&list=logevents&lelimit=abc`, `${B}&list=logevents&lestart=&letype=move`, `${B}&list=logevents&letype=bogus`,
  `${B}&list=logevents&leprop=ids|bogus&letype=move`, `${B}&list=logevents&lecontinue=20240101000000|abc`, `${B}&list=logevents&letitle=a[b`,
  `${B}&list=logevents&letitle=X&lenamespace=0`, `${B}&list=logevents&leaction=bogus`, `${B}&list=logevents&letype=newusers&lelimit=3`,
  `${B}&list=logevents&letype=delete`, `${B}&list=logevents&letype=create&lelimit=2&formatversion=2`, `${B}&list=logevents&foo=1&letype=move`,
  `${B}&list=bogus`, 'action=bogus&format=json', `${B}&list=logevents&ledir=up&errorformat=plaintext`,
  `${B}&list=logevents&ledir=up&errorformat=plaintext&formatversion=2`, `${B}&list=logevents&ledir=up&errorformat=wikitext&uselang=en`,
  `${B}&list=logevents&ledir=up&errorformat=html`, `${B}&list=logevents&ledir=up&errorformat=raw`, `${B}&list=logevents&ledir=up&errorformat=none`,
  `${B}&list=blocks&bklimit=5`, `${B}&list=blocks&bkprop=id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions`,
  `${B}&list=blocks&bkprop=id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions&formatversion=2`,
  `${B}&list=blocks&bkip=192.0.2.15`, `${B}&list=blocks&bkip=198.51.100.0/24`, `${B}&list=blocks&bkip=198.51.100.7`, `${B}&list=blocks&bkip=1.0.0.0/8`,
  `${B}&list=blocks&bkip=bogus`, `${B}&list=blocks&bkusers=Вандал_1|Spammer 1`, `${B}&list=blocks&bkshow=ip`, `${B}&list=blocks&bkshow=range`,
  `${B}&list=blocks&bkshow=!account|temp`, `${B}&list=blocks&bkshow=account|!account`, `${B}&list=blocks&bkids=1|2|3`, `${B}&list=blocks&bkids=x`,
  `${B}&list=blocks&bkdir=newer&bklimit=4`, `${B}&list=blocks&bkusers=Вандал 1&bkip=1.2.3.4`,
  `${B}&list=protectedtitles&ptlimit=5`, `${B}&list=protectedtitles&ptprop=timestamp|user|userid|comment|parsedcomment|expiry|level`,
  `${B}&list=protectedtitles&ptlevel=sysop`, `${B}&list=protectedtitles&ptnamespace=0|10`, `${B}&list=protectedtitles&ptdir=newer&ptlimit=3`,
  `${B}&list=protectedtitles&ptnamespace=0|99`, `${B}&list=protectedtitles&ptcontinue=bad`, `${B}&list=logevents|blocks&lelimit=3&bklimit=3`,
  `${B}&list=blocks|logevents&lelimit=3&bklimit=3`,
  `${B}&prop=extlinks&titles=Москва|Список ссылок|Alpha|Несуществующая`, `${B}&prop=extlinks&titles=Москва|Список ссылок|Alpha|Несуществующая&formatversion=2`,
  `${B}&prop=extlinks&titles=Список ссылок&ellimit=5`, `${B}&prop=extlinks&titles=Alpha|Beta`, `${B}&prop=extlinks&titles=Alpha&elprotocol=https`,
  `${B}&prop=extlinks&titles=Список ссылок&elquery=example.org`, `${B}&prop=extlinks&titles=Список ссылок&elquery=*.example.org&ellimit=3`,
  `${B}&prop=extlinks&titles=москва|Project:О_проекте|Википедия:x|a[b`, `${B}&prop=extlinks&titles=Alpha&pageids=1`, `${B}&prop=extlinks&pageids=2|999`,
  `${B}&prop=extlinks&titles=`, `${B}&prop=extlinks&titles=Alpha&elexpandurl=1`, `${B}&prop=extlinks&titles=Москва|Alpha&formatversion=2&ellimit=2`,
  'action=parse&format=json&summary=[[Foo]] bar', 'action=parse&format=json&summary=[[Москва]]ы и&prop=',
  'action=parse&format=json&summary=/* Раздел 1 */ текст&prop=', 'action=parse&format=json&summary=текст /* Раздел */&prop=',
  'action=parse&format=json&summary=[[Alpha|альфа]] and [[Несуществующая]]&prop=&formatversion=2', 'action=parse&format=json&summary=<b>x</b> %26amp; a%26mdash;b&prop=',
  'action=parse&format=json&summary=&prop=', 'action=parse&format=json&summary=x&prop=displaytitle|parsewarnings&formatversion=2',
  'action=spamblacklist&format=json&url=https://ok.test/', 'action=spamblacklist&format=json', 'action=spamblacklist&format=json&url=',
  'action=spamblacklist&format=json&url=http://casino-spam.example/x|https://ok.test/',
  'action=spamblacklist&format=json&url=http://free-money.test/|http://casino-spam.example/b|http://casino-spam.example/a',
  `${B}&list=protectedtitles&utf8=1`, `${B}&list=protectedtitles&formatversion=2&ascii=1`, `${B}&list=protectedtitles&callback=cb`,
  `${B}&list=protectedtitles&origin=*`, `${B}&list=protectedtitles&callback[]=cb`, `${B}&list=protectedtitles&formatversion=2&callback[]=cb&curtimestamp[]=1`, `${B}&list=logevents&lelimit=abc&callback[]=cb`,
  `${B}&meta=siteinfo&siprop=general|namespaces|namespacealiases&formatversion=2`, `${B}&meta=siteinfo&siprop=namespaces|namespacealiases`,
  `${B}&meta=siteinfo|userinfo&siprop=general|namespaces&uiprop=groups|rights|blockinfo|hasmsg&continue=`,
  `${B}&list=blocks&maxlag=-1`, `${B}&list=logevents&maxlag=5&formatversion=2`,
  `${B}&meta=userinfo&uiprop=blockinfo|hasmsg`, `${B}&meta=userinfo&uiprop=blockinfo|hasmsg&formatversion=2`,
  `${B}&list=logevents&lelimit=5&continue=&meta=userinfo&uiprop=blockinfo|hasmsg`,
  `${B}&list=logevents&lelimit=5&lecontinue=20261122121253|80&continue=-||userinfo&meta=userinfo&uiprop=blockinfo|hasmsg`, `${B}&list=protectedtitles&uselang=en&maxage=60&smaxage=60`, `${B}&list=protectedtitles&requestid=x&curtimestamp=1`,
  ...VALIDATOR_QUESTIONS,
];

/** Response headers clients read, compared in the differential tests. */
export const HEADERS = ['content-type', 'cache-control', 'vary', 'mediawiki-api-error', 'access-control-allow-origin', 'mediawiki-login-suppressed'];
