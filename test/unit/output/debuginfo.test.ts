import { describe, expect, it } from 'vitest';
import {
  buildDebugInfo,
  debugIncludes,
  debugInfoForFormatVersion,
  startRequestLine,
  type DebugInfoInput,
} from '../../../src/output/debuginfo.js';
import { MODULES } from '../../../src/modules/index.js';
import { modulesNamed, requestedCacheMode } from '../../../src/api/registry.js';
import { emptyModel, type WikiModel } from '../../../src/wiki/model.js';
import { toMw } from '../../../src/util/timestamp.js';
import { sessionCookies } from '../../../src/output/session.js';
import { encodeJson } from '../../../src/output/json.js';
import { formatSize } from '../../../src/i18n/numbers.js';
import { ANONYMOUS } from '../../../src/api/session.js';
import { lang as L } from '../../support/lang.js';
import { makeProfile } from '../../../src/wiki/profile.js';
import type { JsonObject } from '../../../src/api/result.js';

/*
 * Real debuginfo of MediaWiki 1.39.17 (SQLite, $wgDebugToolbar, Debian package, PHP 8.2.36),
 * fetched with curl; session ids replaced by "SID". REAL_LOGEVENTS: action=query&list=logevents&
 * format=json&formatversion=2; REAL_PARSE: action=parse&summary=[[Foo]]&format=json&formatversion=2;
 * REAL_SPAM: action=spamblacklist&url=http://a.example|http://b.example&format=json&formatversion=2;
 * REAL_LOGEVENTS_EN: the logevents request with &uselang=en.
 */
const REAL_LOGEVENTS = {"debugLog": ["\n\nStart request GET /wiki/api.php?action=query&list=logevents&format=json&formatversion=2\nIP: 127.0.0.1\nHTTP HEADERS:\nHOST: 127.0.0.1:8094\nUSER-AGENT: curl/7.88.1\nACCEPT: */*\n(end headers)", "[session] SessionManager using store SqlBagOStuff", "[localisation] LocalisationCache using store LCStoreCDB", "[objectcache] MainWANObjectCache using store EmptyBagOStuff", "[session] SessionBackend \"SID\" is unsaved, marking dirty in constructor", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=1 forcePersist=0", "[cookie] already deleted setcookie: \"wikidb_session\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbUserID\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbToken\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"forceHTTPS\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[session] SessionBackend \"SID\" data dirty due to dirty(): MediaWiki\\Session\\SessionManager->getSessionForRequest/MediaWiki\\Session\\SessionManager->getInitialSession/MediaWiki\\Session\\Session->getToken/MediaWiki\\Session\\Session->set/MediaWiki\\Session\\SessionBackend->dirty", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=0 forcePersist=0", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA case_sensitive_like = 1", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA temp_store = MEMORY", "[DBReplication] Cannot use ChronologyProtector with EmptyBagOStuff", "[DBReplication] Wikimedia\\Rdbms\\LBFactory::getChronologyProtector: request info {\n    \"IPAddress\": \"127.0.0.1\",\n    \"UserAgent\": \"curl\\/7.88.1\",\n    \"ChronologyProtection\": false,\n    \"ChronologyPositionIndex\": 0,\n    \"ChronologyClientId\": false\n}", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::lazyLoadReplicationPositions: executed chronology callback.", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: opened new connection for local/0", "[DBQuery] Wikimedia\\Rdbms\\Database::beginIfImplied (ApiQueryLogEvents::execute) [0s] unknown: BEGIN DEFERRED", "[DBQuery] ApiQueryLogEvents::execute [0.001s] unknown: SELECT  /*! STRAIGHT_JOIN */ log_id,log_type,log_action,log_timestamp,log_deleted,page_id,log_page,actor_name,actor_user,log_namespace,log_title,log_params,comment_log_comment.comment_text AS \"log_comment_text\",comment_log_comment.comment_data AS \"log_comment_data\",comment_log_comment.comment_id AS \"log_comment_cid\"  FROM \"logging\" JOIN \"actor\" ON ((actor_id=log_actor)) LEFT JOIN \"page\" ON ((log_namespace=page_namespace) AND (log_title=page_title)) JOIN \"comment\" \"comment_log_comment\" ON ((comment_log_comment.comment_id = log_comment_id))   WHERE (log_type NOT IN ('spamblacklist','suppress'))  ORDER BY log_timestamp DESC,log_id DESC LIMIT 11", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: reused a connection for local/0", "ApiMain::setCacheMode: downgrading cache mode 'public' to 'anon-public-user-private' due to uselang=user", "ApiMain::setCacheMode: setting cache mode anon-public-user-private", "[gitinfo] Candidate cacheFile=/usr/share/mediawiki/gitinfo.json for /usr/share/mediawiki", "[gitinfo] Cache incomplete for /usr/share/mediawiki"], "queries": [{"sql": "unknown: PRAGMA case_sensitive_like = 1", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: PRAGMA temp_store = MEMORY", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: BEGIN DEFERRED", "function": "Wikimedia\\Rdbms\\Database::beginIfImplied (ApiQueryLogEvents::execute)", "time": 0}, {"sql": "unknown: SELECT  /*! STRAIGHT_JOIN */ log_id,log_type,log_action,log_timestamp,log_deleted,page_id,log_page,actor_name,actor_user,log_namespace,log_title,log_params,comment_log_comment.comment_text AS \"log_comment_text\",comment_log_comment.comment_data AS \"log_comment_data\",comment_log_comment.comment_id AS \"log_comment_cid\"  FROM \"logging\" JOIN \"actor\" ON ((actor_id=log_actor)) LEFT JOIN \"page\" ON ((log_namespace=page_namespace) AND (log_title=page_title)) JOIN \"comment\" \"comment_log_comment\" ON ((comment_log_comment.comment_id = log_comment_id))   WHERE (log_type NOT IN ('spamblacklist','suppress'))  ORDER BY log_timestamp DESC,log_id DESC LIMIT 11  ", "function": "ApiQueryLogEvents::execute", "time": 0.001}], "request": {"method": "GET", "url": "/wiki/api.php?action=query&list=logevents&format=json&formatversion=2", "headers": {"HOST": "127.0.0.1:8094", "USER-AGENT": "curl/7.88.1", "ACCEPT": "*/*"}, "params": {"action": "query", "list": "logevents", "format": "json", "formatversion": "2"}}, "time": 0.009236812591552734, "includesHead": [{"name": "/usr/share/mediawiki/api.php", "size": "4 КБ"}, {"name": "/usr/share/mediawiki/includes/WebStart.php", "size": "4 КБ"}, {"name": "/usr/share/mediawiki/includes/BootstrapHelperFunctions.php", "size": "3 КБ"}], "includesTail": [{"name": "/usr/share/mediawiki/includes/libs/rdbms/encasing/Blob.php", "size": "391 байт"}, {"name": "/usr/share/mediawiki/includes/libs/rdbms/encasing/IBlob.php", "size": "229 байт"}], "includesCount": 929, "keys": ["mwVersion", "phpEngine", "phpVersion", "gitRevision", "gitBranch", "gitViewUrl", "time", "log", "debugLog", "queries", "request", "memory", "memoryPeak", "includes"], "log": [{"msg": "MWDebug output complete", "type": "log", "caller": "MWDebug::appendDebugInfoToApiResult"}], "memory": "1,36 МБ"} as const;

const REAL_PARSE = {"debugLog": ["\n\nStart request GET /wiki/api.php?action=parse&summary=%5B%5BFoo%5D%5D&format=json&formatversion=2\nIP: 127.0.0.1\nHTTP HEADERS:\nHOST: 127.0.0.1:8094\nUSER-AGENT: curl/7.88.1\nACCEPT: */*\n(end headers)", "[session] SessionManager using store SqlBagOStuff", "[localisation] LocalisationCache using store LCStoreCDB", "[objectcache] MainWANObjectCache using store EmptyBagOStuff", "[session] SessionBackend \"SID\" is unsaved, marking dirty in constructor", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=1 forcePersist=0", "[cookie] already deleted setcookie: \"wikidb_session\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbUserID\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbToken\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"forceHTTPS\", \"\", \"1763811318\", \"/\", \"\", \"\", \"1\", \"\"", "[session] SessionBackend \"SID\" data dirty due to dirty(): MediaWiki\\Session\\SessionManager->getSessionForRequest/MediaWiki\\Session\\SessionManager->getInitialSession/MediaWiki\\Session\\Session->getToken/MediaWiki\\Session\\Session->set/MediaWiki\\Session\\SessionBackend->dirty", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=0 forcePersist=0", "ParserFactory: using default preprocessor", "[ContentHandler] Registered handler for wikitext: WikitextContentHandler", "[ContentHandler] Registered handler for javascript: JavaScriptContentHandler", "[ContentHandler] Registered handler for json: JsonContentHandler", "[ContentHandler] Registered handler for css: CssContentHandler", "[ContentHandler] Registered handler for text: TextContentHandler", "[ContentHandler] Registered handler for unknown: FallbackContentHandler", "ApiMain::setCacheMode: setting cache mode anon-public-user-private", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA case_sensitive_like = 1", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA temp_store = MEMORY", "[DBReplication] Cannot use ChronologyProtector with EmptyBagOStuff", "[DBReplication] Wikimedia\\Rdbms\\LBFactory::getChronologyProtector: request info {\n    \"IPAddress\": \"127.0.0.1\",\n    \"UserAgent\": \"curl\\/7.88.1\",\n    \"ChronologyProtection\": false,\n    \"ChronologyPositionIndex\": 0,\n    \"ChronologyClientId\": false\n}", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::lazyLoadReplicationPositions: executed chronology callback.", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: opened new connection for local/0", "[DBQuery] Wikimedia\\Rdbms\\Database::beginIfImplied (WikiPage::pageData) [0s] unknown: BEGIN DEFERRED", "[DBQuery] WikiPage::pageData [0.001s] unknown: SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_random,page_touched,page_links_updated,page_latest,page_len,page_content_model  FROM \"page\"    WHERE page_namespace = 0 AND page_title = 'API'  LIMIT 1", "Unstubbing $wgLang on call of $wgLang::unstub from ContentHandler->getPageLanguage", "[MessageCache] MessageCache using store SqlBagOStuff", "[SQLBagOStuff] SqlBagOStuff debug: SqlBagOStuff::fetchBlobs: retrieved wikidb:messages:en; expiry time is 99991231235959", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: reused a connection for local/0", "[DBQuery] MessageCache::loadFromDB(en)-big [0s] unknown: SELECT  page_title,page_latest  FROM \"page\"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title LIKE '%/en' ESCAPE '`' ) AND (page_len > 10000)", "[DBQuery] MessageCache::loadFromDB(en)-small [0s] unknown: SELECT  /*! STRAIGHT_JOIN */ rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS \"rev_comment_text\",comment_rev_comment.comment_data AS \"rev_comment_data\",comment_rev_comment.comment_id AS \"rev_comment_cid\",actor_rev_user.actor_user AS \"rev_user\",actor_rev_user.actor_name AS \"rev_user_text\",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len  FROM \"page\" JOIN \"revision\" ON ((page_id = rev_page)) JOIN \"revision_comment_temp\" \"temp_rev_comment\" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN \"comment\" \"comment_rev_comment\" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN \"actor\" \"actor_rev_user\" ON ((actor_rev_user.actor_id = rev_actor))   WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title LIKE '%/en' ESCAPE '`' ) AND (page_len <= 10000) AND (page_latest = rev_id)", "[MessageCache] MessageCache::loadUnguarded: Loading en... local cache is empty, global cache is expired/volatile, loading from DB", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: reused a connection for local/0", "[DBQuery] LinkBatch::doQuery (for MediaWiki\\CommentFormatter\\CommentParser::addPageLink) [0s] unknown: SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_latest,page_touched,page_len,page_content_model  FROM \"page\"    WHERE (page_namespace = 0 AND page_title = 'Foo')", "[SQLBagOStuff] SqlBagOStuff debug: SqlBagOStuff::fetchBlobs: retrieved wikidb:messages:ru; expiry time is 99991231235959", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: reused a connection for local/0", "[DBQuery] MessageCache::loadFromDB(ru)-big [0s] unknown: SELECT  page_title,page_latest  FROM \"page\"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len > 10000)", "[DBQuery] MessageCache::loadFromDB(ru)-small [0.003s] unknown: SELECT  /*! STRAIGHT_JOIN */ rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS \"rev_comment_text\",comment_rev_comment.comment_data AS \"rev_comment_data\",comment_rev_comment.comment_id AS \"rev_comment_cid\",actor_rev_user.actor_user AS \"rev_user\",actor_rev_user.actor_name AS \"rev_user_text\",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len  FROM \"page\" JOIN \"revision\" ON ((page_id = rev_page)) JOIN \"revision_comment_temp\" \"temp_rev_comment\" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN \"comment\" \"comment_rev_comment\" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN \"actor\" \"actor_rev_user\" ON ((actor_rev_user.actor_id = rev_actor))   WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len <= 10000) AND (page_latest = rev_id)", "[MessageCache] MessageCache::loadUnguarded: Loading ru... local cache is empty, global cache is expired/volatile, loading from DB", "[gitinfo] Candidate cacheFile=/usr/share/mediawiki/gitinfo.json for /usr/share/mediawiki", "[gitinfo] Cache incomplete for /usr/share/mediawiki"], "queries": [{"sql": "unknown: PRAGMA case_sensitive_like = 1", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: PRAGMA temp_store = MEMORY", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: BEGIN DEFERRED", "function": "Wikimedia\\Rdbms\\Database::beginIfImplied (WikiPage::pageData)", "time": 0}, {"sql": "unknown: SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_random,page_touched,page_links_updated,page_latest,page_len,page_content_model  FROM \"page\"    WHERE page_namespace = 0 AND page_title = 'API'  LIMIT 1  ", "function": "WikiPage::pageData", "time": 0.001}, {"sql": "unknown: SELECT  page_title,page_latest  FROM \"page\"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title LIKE '%/en' ESCAPE '`' ) AND (page_len > 10000)  ", "function": "MessageCache::loadFromDB(en)-big", "time": 0}, {"sql": "unknown: SELECT  /*! STRAIGHT_JOIN */ rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS \"rev_comment_text\",comment_rev_comment.comment_data AS \"rev_comment_data\",comment_rev_comment.comment_id AS \"rev_comment_cid\",actor_rev_user.actor_user AS \"rev_user\",actor_rev_user.actor_name AS \"rev_user_text\",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len  FROM \"page\" JOIN \"revision\" ON ((page_id = rev_page)) JOIN \"revision_comment_temp\" \"temp_rev_comment\" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN \"comment\" \"comment_rev_comment\" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN \"actor\" \"actor_rev_user\" ON ((actor_rev_user.actor_id = rev_actor))   WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title LIKE '%/en' ESCAPE '`' ) AND (page_len <= 10000) AND (page_latest = rev_id)  ", "function": "MessageCache::loadFromDB(en)-small", "time": 0}, {"sql": "unknown: SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_latest,page_touched,page_len,page_content_model  FROM \"page\"    WHERE (page_namespace = 0 AND page_title = 'Foo')  ", "function": "LinkBatch::doQuery (for MediaWiki\\CommentFormatter\\CommentParser::addPageLink)", "time": 0}, {"sql": "unknown: SELECT  page_title,page_latest  FROM \"page\"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len > 10000)  ", "function": "MessageCache::loadFromDB(ru)-big", "time": 0}, {"sql": "unknown: SELECT  /*! STRAIGHT_JOIN */ rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS \"rev_comment_text\",comment_rev_comment.comment_data AS \"rev_comment_data\",comment_rev_comment.comment_id AS \"rev_comment_cid\",actor_rev_user.actor_user AS \"rev_user\",actor_rev_user.actor_name AS \"rev_user_text\",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len  FROM \"page\" JOIN \"revision\" ON ((page_id = rev_page)) JOIN \"revision_comment_temp\" \"temp_rev_comment\" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN \"comment\" \"comment_rev_comment\" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN \"actor\" \"actor_rev_user\" ON ((actor_rev_user.actor_id = rev_actor))   WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len <= 10000) AND (page_latest = rev_id)  ", "function": "MessageCache::loadFromDB(ru)-small", "time": 0.003}], "request": {"method": "GET", "url": "/wiki/api.php?action=parse&summary=%5B%5BFoo%5D%5D&format=json&formatversion=2", "headers": {"HOST": "127.0.0.1:8094", "USER-AGENT": "curl/7.88.1", "ACCEPT": "*/*"}, "params": {"action": "parse", "summary": "[[Foo]]", "format": "json", "formatversion": "2"}}, "time": 0.026821136474609375, "includesHead": [{"name": "/usr/share/mediawiki/api.php", "size": "4 КБ"}, {"name": "/usr/share/mediawiki/includes/WebStart.php", "size": "4 КБ"}, {"name": "/usr/share/mediawiki/includes/BootstrapHelperFunctions.php", "size": "3 КБ"}], "includesTail": [{"name": "/usr/share/mediawiki/includes/PathRouter.php", "size": "14 КБ"}, {"name": "/usr/share/mediawiki/includes/GitInfo.php", "size": "13 КБ"}], "includesCount": 1052, "keys": ["mwVersion", "phpEngine", "phpVersion", "gitRevision", "gitBranch", "gitViewUrl", "time", "log", "debugLog", "queries", "request", "memory", "memoryPeak", "includes"], "log": [{"msg": "MWDebug output complete", "type": "log", "caller": "MWDebug::appendDebugInfoToApiResult"}], "memory": "1,84 МБ"} as const;

const REAL_SPAM = {"debugLog": ["\n\nStart request GET /wiki/api.php?action=spamblacklist&url=http://a.example|http://b.example&format=json&formatversion=2\nIP: 127.0.0.1\nHTTP HEADERS:\nHOST: 127.0.0.1:8094\nUSER-AGENT: curl/7.88.1\nACCEPT: */*\n(end headers)", "[session] SessionManager using store SqlBagOStuff", "[localisation] LocalisationCache using store LCStoreCDB", "[objectcache] MainWANObjectCache using store EmptyBagOStuff", "[session] SessionBackend \"SID\" is unsaved, marking dirty in constructor", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=1 forcePersist=0", "[cookie] already deleted setcookie: \"wikidb_session\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbUserID\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbToken\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"forceHTTPS\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[session] SessionBackend \"SID\" data dirty due to dirty(): MediaWiki\\Session\\SessionManager->getSessionForRequest/MediaWiki\\Session\\SessionManager->getInitialSession/MediaWiki\\Session\\Session->getToken/MediaWiki\\Session\\Session->set/MediaWiki\\Session\\SessionBackend->dirty", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=0 forcePersist=0", "[MessageCache] MessageCache using store SqlBagOStuff", "[SQLBagOStuff] SqlBagOStuff debug: SqlBagOStuff::fetchBlobs: retrieved wikidb:messages:ru; expiry time is 99991231235959", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA case_sensitive_like = 1", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA temp_store = MEMORY", "[DBReplication] Cannot use ChronologyProtector with EmptyBagOStuff", "[DBReplication] Wikimedia\\Rdbms\\LBFactory::getChronologyProtector: request info {\n    \"IPAddress\": \"127.0.0.1\",\n    \"UserAgent\": \"curl\\/7.88.1\",\n    \"ChronologyProtection\": false,\n    \"ChronologyPositionIndex\": 0,\n    \"ChronologyClientId\": false\n}", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::lazyLoadReplicationPositions: executed chronology callback.", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: opened new connection for local/0", "[DBQuery] Wikimedia\\Rdbms\\Database::beginIfImplied (MessageCache::loadFromDB(ru)-big) [0s] unknown: BEGIN DEFERRED", "[DBQuery] MessageCache::loadFromDB(ru)-big [0.001s] unknown: SELECT  page_title,page_latest  FROM \"page\"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len > 10000)", "[DBQuery] MessageCache::loadFromDB(ru)-small [0s] unknown: SELECT  /*! STRAIGHT_JOIN */ rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS \"rev_comment_text\",comment_rev_comment.comment_data AS \"rev_comment_data\",comment_rev_comment.comment_id AS \"rev_comment_cid\",actor_rev_user.actor_user AS \"rev_user\",actor_rev_user.actor_name AS \"rev_user_text\",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len  FROM \"page\" JOIN \"revision\" ON ((page_id = rev_page)) JOIN \"revision_comment_temp\" \"temp_rev_comment\" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN \"comment\" \"comment_rev_comment\" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN \"actor\" \"actor_rev_user\" ON ((actor_rev_user.actor_id = rev_actor))   WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len <= 10000) AND (page_latest = rev_id)", "[MessageCache] MessageCache::loadUnguarded: Loading ru... local cache is empty, global cache is expired/volatile, loading from DB", "[objectcache] fetchOrRegenerate(wikidb:spamblacklist:spam:blacklist-regex): miss, new value computed", "[SpamBlacklist] Loading spam regex...", "[SpamBlacklist] Constructing spam blacklist", "[SpamBlacklist] got from file /tmp/livewiki-d/spam-blacklist.txt", "[objectcache] fetchOrRegenerate(wikidb:spamblacklist:spam:shared-blacklist-regex): miss, new value computed", "[objectcache] fetchOrRegenerate(wikidb:spamblacklist:spam:whitelist-regex): miss, new value computed", "[SpamBlacklist] Old URLs:", "[SpamBlacklist] New URLs: http://a.example, http://b.example", "[SpamBlacklist] Added URLs: http://a.example, http://b.example", "[SpamBlacklist] Excluding whitelisted URLs from 0 regexes:", "[SpamBlacklist] Checking text against 1 regexes: /(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(casino-spam\\.example|badpills\\.test|\\bfree-money\\b)/Sim", "[gitinfo] Candidate cacheFile=/usr/share/mediawiki/gitinfo.json for /usr/share/mediawiki", "[gitinfo] Cache incomplete for /usr/share/mediawiki"], "queries": [{"sql": "unknown: PRAGMA case_sensitive_like = 1", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: PRAGMA temp_store = MEMORY", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: BEGIN DEFERRED", "function": "Wikimedia\\Rdbms\\Database::beginIfImplied (MessageCache::loadFromDB(ru)-big)", "time": 0}, {"sql": "unknown: SELECT  page_title,page_latest  FROM \"page\"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len > 10000)  ", "function": "MessageCache::loadFromDB(ru)-big", "time": 0.001}, {"sql": "unknown: SELECT  /*! STRAIGHT_JOIN */ rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS \"rev_comment_text\",comment_rev_comment.comment_data AS \"rev_comment_data\",comment_rev_comment.comment_id AS \"rev_comment_cid\",actor_rev_user.actor_user AS \"rev_user\",actor_rev_user.actor_name AS \"rev_user_text\",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len  FROM \"page\" JOIN \"revision\" ON ((page_id = rev_page)) JOIN \"revision_comment_temp\" \"temp_rev_comment\" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN \"comment\" \"comment_rev_comment\" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN \"actor\" \"actor_rev_user\" ON ((actor_rev_user.actor_id = rev_actor))   WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`' ) AND (page_len <= 10000) AND (page_latest = rev_id)  ", "function": "MessageCache::loadFromDB(ru)-small", "time": 0}], "request": {"method": "GET", "url": "/wiki/api.php?action=spamblacklist&url=http://a.example|http://b.example&format=json&formatversion=2", "headers": {"HOST": "127.0.0.1:8094", "USER-AGENT": "curl/7.88.1", "ACCEPT": "*/*"}, "params": {"action": "spamblacklist", "url": "http://a.example|http://b.example", "format": "json", "formatversion": "2"}}, "time": 0.010249137878417969, "includesHead": [{"name": "/usr/share/mediawiki/api.php", "size": "4 КБ"}, {"name": "/usr/share/mediawiki/includes/WebStart.php", "size": "4 КБ"}, {"name": "/usr/share/mediawiki/includes/BootstrapHelperFunctions.php", "size": "3 КБ"}], "includesTail": [{"name": "/usr/share/mediawiki/includes/skins/Skin.php", "size": "83 КБ"}, {"name": "/usr/share/mediawiki/includes/skins/SkinFactory.php", "size": "5 КБ"}], "includesCount": 899, "keys": ["mwVersion", "phpEngine", "phpVersion", "gitRevision", "gitBranch", "gitViewUrl", "time", "log", "debugLog", "queries", "request", "memory", "memoryPeak", "includes"], "log": [{"msg": "MWDebug output complete", "type": "log", "caller": "MWDebug::appendDebugInfoToApiResult"}], "memory": "1,23 МБ"} as const;

const REAL_LOGEVENTS_EN = {"debugLog": ["\n\nStart request GET /wiki/api.php?action=query&list=logevents&format=json&formatversion=2&uselang=en\nIP: 127.0.0.1\nHTTP HEADERS:\nHOST: 127.0.0.1:8094\nUSER-AGENT: curl/7.88.1\nACCEPT: */*\n(end headers)", "[session] SessionManager using store SqlBagOStuff", "[localisation] LocalisationCache using store LCStoreCDB", "[objectcache] MainWANObjectCache using store EmptyBagOStuff", "[session] SessionBackend \"SID\" is unsaved, marking dirty in constructor", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=1 forcePersist=0", "[cookie] already deleted setcookie: \"wikidb_session\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbUserID\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"wikidbToken\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[cookie] already deleted setcookie: \"forceHTTPS\", \"\", \"1763811319\", \"/\", \"\", \"\", \"1\", \"\"", "[session] SessionBackend \"SID\" data dirty due to dirty(): MediaWiki\\Session\\SessionManager->getSessionForRequest/MediaWiki\\Session\\SessionManager->getInitialSession/MediaWiki\\Session\\Session->getToken/MediaWiki\\Session\\Session->set/MediaWiki\\Session\\SessionBackend->dirty", "[session] SessionBackend \"SID\" save: dataDirty=1 metaDirty=0 forcePersist=0", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA case_sensitive_like = 1", "[DBQuery] Wikimedia\\Rdbms\\DatabaseSqlite::open [0s] unknown: PRAGMA temp_store = MEMORY", "[DBReplication] Cannot use ChronologyProtector with EmptyBagOStuff", "[DBReplication] Wikimedia\\Rdbms\\LBFactory::getChronologyProtector: request info {\n    \"IPAddress\": \"127.0.0.1\",\n    \"UserAgent\": \"curl\\/7.88.1\",\n    \"ChronologyProtection\": false,\n    \"ChronologyPositionIndex\": 0,\n    \"ChronologyClientId\": false\n}", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::lazyLoadReplicationPositions: executed chronology callback.", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: opened new connection for local/0", "[DBQuery] Wikimedia\\Rdbms\\Database::beginIfImplied (ApiQueryLogEvents::execute) [0s] unknown: BEGIN DEFERRED", "[DBQuery] ApiQueryLogEvents::execute [0.001s] unknown: SELECT  /*! STRAIGHT_JOIN */ log_id,log_type,log_action,log_timestamp,log_deleted,page_id,log_page,actor_name,actor_user,log_namespace,log_title,log_params,comment_log_comment.comment_text AS \"log_comment_text\",comment_log_comment.comment_data AS \"log_comment_data\",comment_log_comment.comment_id AS \"log_comment_cid\"  FROM \"logging\" JOIN \"actor\" ON ((actor_id=log_actor)) LEFT JOIN \"page\" ON ((log_namespace=page_namespace) AND (log_title=page_title)) JOIN \"comment\" \"comment_log_comment\" ON ((comment_log_comment.comment_id = log_comment_id))   WHERE (log_type NOT IN ('spamblacklist','suppress'))  ORDER BY log_timestamp DESC,log_id DESC LIMIT 11", "[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: reused a connection for local/0", "ApiMain::setCacheMode: setting cache mode public", "[gitinfo] Candidate cacheFile=/usr/share/mediawiki/gitinfo.json for /usr/share/mediawiki", "[gitinfo] Cache incomplete for /usr/share/mediawiki"], "queries": [{"sql": "unknown: PRAGMA case_sensitive_like = 1", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: PRAGMA temp_store = MEMORY", "function": "Wikimedia\\Rdbms\\DatabaseSqlite::open", "time": 0}, {"sql": "unknown: BEGIN DEFERRED", "function": "Wikimedia\\Rdbms\\Database::beginIfImplied (ApiQueryLogEvents::execute)", "time": 0}, {"sql": "unknown: SELECT  /*! STRAIGHT_JOIN */ log_id,log_type,log_action,log_timestamp,log_deleted,page_id,log_page,actor_name,actor_user,log_namespace,log_title,log_params,comment_log_comment.comment_text AS \"log_comment_text\",comment_log_comment.comment_data AS \"log_comment_data\",comment_log_comment.comment_id AS \"log_comment_cid\"  FROM \"logging\" JOIN \"actor\" ON ((actor_id=log_actor)) LEFT JOIN \"page\" ON ((log_namespace=page_namespace) AND (log_title=page_title)) JOIN \"comment\" \"comment_log_comment\" ON ((comment_log_comment.comment_id = log_comment_id))   WHERE (log_type NOT IN ('spamblacklist','suppress'))  ORDER BY log_timestamp DESC,log_id DESC LIMIT 11  ", "function": "ApiQueryLogEvents::execute", "time": 0.001}], "request": {"method": "GET", "url": "/wiki/api.php?action=query&list=logevents&format=json&formatversion=2&uselang=en", "headers": {"HOST": "127.0.0.1:8094", "USER-AGENT": "curl/7.88.1", "ACCEPT": "*/*"}, "params": {"action": "query", "list": "logevents", "format": "json", "formatversion": "2", "uselang": "en"}}, "time": 0.00847005844116211, "includesHead": [{"name": "/usr/share/mediawiki/api.php", "size": "4 KB"}, {"name": "/usr/share/mediawiki/includes/WebStart.php", "size": "4 KB"}, {"name": "/usr/share/mediawiki/includes/BootstrapHelperFunctions.php", "size": "3 KB"}], "includesTail": [{"name": "/usr/share/mediawiki/includes/libs/rdbms/encasing/Blob.php", "size": "391 bytes"}, {"name": "/usr/share/mediawiki/includes/libs/rdbms/encasing/IBlob.php", "size": "229 bytes"}], "includesCount": 926, "keys": ["mwVersion", "phpEngine", "phpVersion", "gitRevision", "gitBranch", "gitViewUrl", "time", "log", "debugLog", "queries", "request", "memory", "memoryPeak", "includes"], "log": [{"msg": "MWDebug output complete", "type": "log", "caller": "MWDebug::appendDebugInfoToApiResult"}], "memory": "1.33 MB"} as const;

const profile = makeProfile({ version: '1.39.17', runtimeVersion: '8.2.36', dbServer: 'unknown', server: 'http://127.0.0.1:8094' });
const SID = /"[0-9a-v]{32}"/g;

type Real = typeof REAL_LOGEVENTS | typeof REAL_PARSE | typeof REAL_SPAM | typeof REAL_LOGEVENTS_EN;

/**
 * The input render gives for the real request: the modules the request names (as for a recorded
 * answer), their traces and cache mode; the real query times.
 */
function inputFrom(real: Real, cookieTime: number, extra: Partial<DebugInfoInput> = {}, model: WikiModel = emptyModel(), method: string = real.request.method): DebugInfoInput {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(real.request.headers)) headers[k.toLowerCase()] = v; // as Node gives them
  const params = { ...real.request.params } as Record<string, string>;
  const nowMs = (cookieTime + 365 * 86400) * 1000;
  const map = new Map(Object.entries(params));
  const ran = modulesNamed(MODULES, map, profile);
  const userLang = L(params['uselang'] === 'en' ? 'en' : 'ru', profile.version);
  // The log these were captured from began with a protection (the live wiki's fill ends with
  // protections): formatting its details takes a connection reference, seen in the debug log.
  const answer: JsonObject = params['list'] === 'logevents' ? { query: { logevents: [{ logid: 83, ns: 0, title: 'Москва', type: 'protect' }] } } : {};
  const facts = ran.flatMap((m) => (m.debug ? [m.debug({ profile, params, values: m.values, method, nowMw: toMw(nowMs), userLang, answer, pages: [], model })] : []));
  return {
    profile,
    userLang,
    request: { method, url: real.request.url, headers, params },
    elapsedSeconds: real.time,
    facts,
    queryTime: (i) => real.queries[i]?.time ?? 0,
    cacheMode: requestedCacheMode(MODULES, ran, map, ANONYMOUS),
    nowMs,
    ...extra,
  };
}

function normalized(info: Record<string, unknown>): Record<string, unknown> {
  return { ...info, debugLog: (info['debugLog'] as string[]).map((l) => l.replace(SID, '"SID"')) };
}

describe('buildDebugInfo reproduces real 1.39 debuginfo', () => {
  it('logevents: keys, log, debugLog, queries, request, includes', () => {
    const info = normalized(buildDebugInfo(inputFrom(REAL_LOGEVENTS, 1763811318)));
    expect(Object.keys(info)).toEqual(REAL_LOGEVENTS.keys);
    expect(info['mwVersion']).toBe('1.39.17');
    expect(info['phpEngine']).toBe('PHP');
    expect(info['phpVersion']).toBe('8.2.36');
    expect([info['gitRevision'], info['gitBranch'], info['gitViewUrl']]).toEqual([false, false, false]);
    expect(info['time']).toBe(REAL_LOGEVENTS.time);
    expect(info['log']).toEqual(REAL_LOGEVENTS.log);
    expect(info['debugLog']).toEqual(REAL_LOGEVENTS.debugLog);
    expect(info['queries']).toEqual(REAL_LOGEVENTS.queries);
    expect(info['request']).toEqual(REAL_LOGEVENTS.request);
    const includes = info['includes'] as Array<{ name: string; size: string }>;
    expect(includes.length).toBe(REAL_LOGEVENTS.includesCount);
    expect(includes.slice(0, 3)).toEqual(REAL_LOGEVENTS.includesHead);
    expect(includes.slice(-2)).toEqual(REAL_LOGEVENTS.includesTail);
    expect(info['memory']).toMatch(/^\d+(,\d+)? МБ$/);
  });

  it('logevents with uselang=en: public cache mode line, English sizes', () => {
    const info = normalized(buildDebugInfo(inputFrom(REAL_LOGEVENTS_EN, 1763811319)));
    expect(info['debugLog']).toEqual(REAL_LOGEVENTS_EN.debugLog);
    const includes = info['includes'] as Array<{ name: string; size: string }>;
    expect(includes.length).toBe(REAL_LOGEVENTS_EN.includesCount);
    expect(includes.slice(0, 3)).toEqual(REAL_LOGEVENTS_EN.includesHead);
    expect(includes.slice(-2)).toEqual(REAL_LOGEVENTS_EN.includesTail);
    expect(info['memory']).toMatch(/^\d+(\.\d+)? MB$/);
  });

  it('parse with a link in the summary: parser lines, MessageCache loading around the queries', () => {
    const info = normalized(buildDebugInfo(inputFrom(REAL_PARSE, 1763811318)));
    expect(info['debugLog']).toEqual(REAL_PARSE.debugLog);
    expect(info['queries']).toEqual(REAL_PARSE.queries);
    const includes = info['includes'] as Array<{ name: string; size: string }>;
    expect(includes.length).toBe(REAL_PARSE.includesCount);
    expect(includes.slice(-2)).toEqual(REAL_PARSE.includesTail);
  });

  it('spamblacklist: MessageCache before the connection, the SpamBlacklist lines', () => {
    const info = normalized(
      buildDebugInfo(
        inputFrom(REAL_SPAM, 1763811319, {}, {
          ...emptyModel(),
          spamBlacklist: ['casino-spam\\.example', 'badpills\\.test', '\\bfree-money\\b'],
          spamBlacklistFile: '/tmp/livewiki-d/spam-blacklist.txt',
        }),
      ),
    );
    expect(info['debugLog']).toEqual(REAL_SPAM.debugLog);
    expect(info['queries']).toEqual(REAL_SPAM.queries);
    expect((info['includes'] as unknown[]).length).toBe(REAL_SPAM.includesCount);
  });

  it('session lines for a well-formed session cookie not in the store (real capture)', () => {
    const session = sessionCookies({ cookieHeader: 'wikidb_session=abcdefghijklmnopqrstuvwxyz012345', cookiePrefix: 'wikidb', https: false });
    const log = buildDebugInfo(inputFrom(REAL_LOGEVENTS, 1763811593, { session }))['debugLog'] as string[];
    const sid = session.sessionId;
    const t = '1763811593';
    expect(log.slice(4, 23)).toEqual([
      '[session] Session "abcdefghijklmnopqrstuvwxyz012345" requested without UserID cookie',
      '[session] SessionBackend "abcdefghijklmnopqrstuvwxyz012345" is unsaved, marking dirty in constructor',
      `[session] SessionBackend "${sid}" metadata dirty due to ID reset (formerly "abcdefghijklmnopqrstuvwxyz012345")`,
      `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`,
      '[session] Persisting session due to no pre-existing stored session',
      `[cookie] setcookie: "wikidb_session", "${sid}", "0", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbUserID", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbToken", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "forceHTTPS", "", "${t}", "/", "", "", "1", ""`,
      `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`,
      `[cookie] already set setcookie: "wikidb_session", "${sid}", "0", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbUserID", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbToken", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "forceHTTPS", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already set setcookie: "wikidb_session", "${sid}", "0", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbUserID", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbToken", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "forceHTTPS", "", "${t}", "/", "", "", "1", ""`,
      `[session] SessionBackend "${sid}" Taking over PHP session`,
    ]);
  });

  it('session lines when sent cookies are deleted (wikidb_session=abc; forceHTTPS=1, real capture)', () => {
    const session = sessionCookies({ cookieHeader: 'wikidb_session=abc; forceHTTPS=1', cookiePrefix: 'wikidb', https: false });
    const log = buildDebugInfo(inputFrom(REAL_LOGEVENTS, 1763811593, { session }))['debugLog'] as string[];
    const t = '1763811593';
    expect(log.slice(6, 10)).toEqual([
      `[cookie] setcookie: "wikidb_session", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbUserID", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] already deleted setcookie: "wikidbToken", "", "${t}", "/", "", "", "1", ""`,
      `[cookie] setcookie: "forceHTTPS", "", "${t}", "/", "", "", "1", ""`,
    ]);
  });

  it('POST: BEGIN IMMEDIATE and the body headers in the start line', () => {
    expect((buildDebugInfo(inputFrom(REAL_LOGEVENTS, 1763811318, {}, emptyModel(), 'POST'))['queries'] as { sql: string }[])[2]!.sql).toBe('unknown: BEGIN IMMEDIATE');
    expect(
      startRequestLine('POST', '/wiki/api.php', {
        Host: '127.0.0.1:8094',
        'User-Agent': 'curl/7.88.1',
        Accept: '*/*',
        'Content-Length': '55',
        'Content-Type': 'application/x-www-form-urlencoded',
      }),
    ).toBe(
      '\n\nStart request POST /wiki/api.php\nIP: 127.0.0.1\nHTTP HEADERS:\nHOST: 127.0.0.1:8094\nUSER-AGENT: curl/7.88.1\nACCEPT: */*\nCONTENT-LENGTH: 55\nCONTENT-TYPE: application/x-www-form-urlencoded\n(end headers)',
    );
  });

  it('1.43+: namespaced MWDebug caller; formatversion=1 drops the false git keys', () => {
    const info = buildDebugInfo({ ...inputFrom(REAL_LOGEVENTS, 1763811318), profile: makeProfile({ version: '1.44.0' }) });
    expect(info['mwVersion']).toBe('1.44.0');
    expect(info['log']).toEqual([{ msg: 'MWDebug output complete', type: 'log', caller: 'MediaWiki\\Debug\\MWDebug::appendDebugInfoToApiResult' }]);
    const v1 = debugInfoForFormatVersion(info, 1);
    expect(Object.keys(v1)).toEqual(['mwVersion', 'phpEngine', 'phpVersion', 'time', 'log', 'debugLog', 'queries', 'request', 'memory', 'memoryPeak', 'includes']);
    expect(v1['includes']).toBe(info['includes']);
  });

  it("names the version field as the profile says: MediaWiki's mwVersion, or the spec's brand-neutral wikiVersion", () => {
    const input = inputFrom(REAL_LOGEVENTS, 1763811318);
    const neutral = buildDebugInfo({ ...input, profile: makeProfile({ version: '1.44.0', versionKey: 'wikiVersion' }) });
    expect(Object.keys(neutral).slice(0, 3)).toEqual(['wikiVersion', 'phpEngine', 'phpVersion']);
    expect(neutral['wikiVersion']).toBe('1.44.0');
    expect(Object.keys(buildDebugInfo({ ...input, profile: makeProfile({ version: '1.44.0' }) }))[0]).toBe('mwVersion');
  });

  it('includes are shared and encode like a plain copy', () => {
    const a = debugIncludes(profile, L('ru'), 'logevents');
    expect(debugIncludes(profile, L('ru'), 'logevents')).toBe(a);
    const info = buildDebugInfo(inputFrom(REAL_LOGEVENTS, 1763811318));
    const plain = JSON.parse(JSON.stringify(info)) as unknown;
    for (const o of [{ ascii: true, pretty: false }, { ascii: false, pretty: true }]) {
      expect(encodeJson({ debuginfo: info }, o)).toBe(encodeJson({ debuginfo: plain }, o));
    }
  });
});

describe('formatSize (Language::formatSize, 1.39)', () => {
  it('ru and en as the real includes and memory figures show them', () => {
    expect(formatSize(L('ru'), 756)).toBe('756 байт');
    expect(formatSize(L('ru'), 1008)).toBe('1008 байт');
    expect(formatSize(L('ru'), 259105)).toBe('253 КБ');
    expect(formatSize(L('ru'), 21147)).toBe('21 КБ');
    expect(formatSize(L('ru'), 1509949)).toBe('1,44 МБ');
    expect(formatSize(L('ru'), 1363149)).toBe('1,3 МБ');
    expect(formatSize(L('ru'), 0)).toBe('0 байт');
    expect(formatSize(L('en'), 1008)).toBe('1,008 bytes');
    expect(formatSize(L('en'), 881)).toBe('881 bytes');
    expect(formatSize(L('en'), 1)).toBe('1 bytes');
    expect(formatSize(L('en'), 163135)).toBe('159 KB');
    expect(formatSize(L('en'), 1.2 * 1048576)).toBe('1.2 MB');
    expect(formatSize(L('en'), 2.56 * 1048576)).toBe('2.56 MB');
  });
});
