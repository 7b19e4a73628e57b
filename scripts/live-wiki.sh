#!/usr/bin/env bash
# A real MediaWiki (Debian's packages) on loopback, filled with data, for the live test tier
# (which also needs Debian's python3-mwclient and chromium: installed here too).
#   live-wiki.sh start   install if needed, start, populate once; prints the api.php URL last
#   live-wiki.sh stop    stop the server
#   live-wiki.sh reset   stop, wipe, start again
# Env: WIKITAPE_LIVE_MW: 1.39 (default: bookworm's package) or 1.43 (trixie's mediawiki and
#        mediawiki-classes unpacked by livewiki/get-mw143.sh, run by bookworm's PHP 8.2);
#      WIKITAPE_LIVE_DIR (default /tmp/wikitape-live) and WIKITAPE_LIVE_PORT (default 8088) name
#        the 1.39 wiki, WIKITAPE_LIVE143_DIR (default /tmp/wikitape-live143) and WIKITAPE_LIVE143_PORT
#        (default 8089) the 1.43 one (so that one environment names both, as test/support/live-wiki.ts
#        reads them); MW_HOME (the MediaWiki files; default /usr/share/mediawiki, for 1.43
#        /tmp/wikitape-mw143/mediawiki).
# Needs bash, coreutils, util-linux and node; everything else comes from apt (as root, or via sudo).
set -euo pipefail
VERSION=${WIKITAPE_LIVE_MW:-1.39}
case "$VERSION" in
  1.39) DIR=${WIKITAPE_LIVE_DIR:-/tmp/wikitape-live}; PORT=${WIKITAPE_LIVE_PORT:-8088}; MW=${MW_HOME:-/usr/share/mediawiki} ;;
  1.43) DIR=${WIKITAPE_LIVE143_DIR:-/tmp/wikitape-live143}; PORT=${WIKITAPE_LIVE143_PORT:-8089}; MW=${MW_HOME:-/tmp/wikitape-mw143/mediawiki} ;;
  *) echo "live-wiki: WIKITAPE_LIVE_MW must be 1.39 or 1.43, not $VERSION" >&2; exit 2 ;;
esac
DIR=${DIR%/}
[[ $DIR == /* ]] || DIR="$PWD/$DIR"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
API="http://127.0.0.1:$PORT/wiki/api.php"
# Debian's MediaWiki reads the settings file from this variable (maintenance scripts and the server)
export MW_CONFIG_FILE="$DIR/LocalSettings.php"
ID_FILE=wikitape-live.txt # served from the docroot: tells our wiki from anything else on the port
OURS="$DIR/.wikitape-live" # marks a directory this script made, which reset may wipe

log() { printf 'live-wiki: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }
tail_of() { [ -f "$1" ] && tail -n "${2:-20}" "$1" | sed 's/^/  | /' >&2 || true; }

# A GET on loopback with bash's /dev/tcp (no curl needed); prints the raw response.
http_get() {
  timeout 10 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf "GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n" "$2" "$1" >&3
    cat <&3' _ "$PORT" "$1" 2>/dev/null
}
listening() { timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$PORT" 2>/dev/null; }
running() { # our wiki (this DIR) answers on the port
  local r
  r=$(http_get "/$ID_FILE") || return 1
  [[ $r == *$'\r\n\r\n'"$DIR" ]] # ($(…) dropped the final newline)
}
api_ok() {
  local r
  r=$(http_get "/wiki/api.php?action=query&meta=siteinfo&format=json") || return 1
  [[ $r == HTTP/1.?" 200"* && $r == *'"sitename"'* ]]
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  die "need root to run: $* (install those Debian packages yourself, or run this as root)"; fi; }

install_packages() {
  local mods=''
  if command -v php >/dev/null; then mods=$(php -m 2>/dev/null || true); fi
  if [ -f "$MW/api.php" ] && [[ $mods == *pdo_sqlite* && $mods == *intl* && $mods == *mbstring* && $mods == *dom* ]] \
    && /usr/bin/python3 -c 'import mwclient' 2>/dev/null && command -v chromium >/dev/null && [ -x /usr/sbin/nginx ]; then return; fi
  # nginx: the load balancer in front of two replay servers (test/live/balancer.test.ts); never started as a service.
  log "installing MediaWiki, and python3-mwclient, chromium and nginx-light for the client tests, from Debian's packages"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    mediawiki php-cli php-sqlite3 php-intl php-mbstring php-xml python3-mwclient chromium nginx-light >/dev/null
  # Debian starts nginx as a service on port 80 where systemd runs; the tests start their own, on a free port.
  if command -v systemctl >/dev/null && systemctl is-active --quiet nginx 2>/dev/null; then as_root systemctl disable --now nginx >/dev/null 2>&1 || true; fi
}

install_mw143() { # trixie's MediaWiki 1.43 files, once, beside bookworm's PHP (and 1.39's dependencies)
  [ "$VERSION" = 1.43 ] && [ ! -f "$MW/api.php" ] || return 0
  [ "$(basename "$MW")" = mediawiki ] || die "MW_HOME for 1.43 must end in /mediawiki (get-mw143.sh unpacks into DIR/mediawiki)"
  log "unpacking MediaWiki 1.43 from Debian trixie's packages into $MW"
  as_root bash "$HERE/livewiki/get-mw143.sh" "$(dirname "$MW")" >"$DIR.get-mw143.log" 2>&1 \
    || { tail_of "$DIR.get-mw143.log"; die "could not get MediaWiki 1.43; see $DIR.get-mw143.log"; }
}

install_wiki() {
  [ -f "$DIR/LocalSettings.php" ] && return
  if [ -d "$DIR" ] && [ -n "$(ls -A "$DIR")" ] && [ ! -e "$OURS" ] && [ ! -L "$DIR/docroot/wiki" ]; then
    die "$DIR is not empty and was not made by this script; set WIKITAPE_LIVE_DIR (1.43: WIKITAPE_LIVE143_DIR) to a new directory"
  fi
  log "installing a wiki into $DIR"
  mkdir -p "$DIR"
  touch "$OURS"
  rm -rf "$DIR"/data "$DIR"/images "$DIR"/populated "$DIR"/populated-links "$DIR"/populating "$DIR"/bot-credentials.json "$DIR"/editor-credentials.json
  mkdir -p "$DIR"/data "$DIR"/docroot "$DIR"/images
  ln -sfn "$MW" "$DIR"/docroot/wiki
  printf '%s\n' "$DIR" >"$DIR/docroot/$ID_FILE"
  # install.php writes LocalSettings.php last, so a failed install leaves none and is retried
  php "$MW"/maintenance/install.php --dbtype sqlite --dbpath "$DIR/data" --dbname wikidb \
    --server "http://127.0.0.1:$PORT" --scriptpath /wiki --lang ru \
    --pass 'Adm1n-Passw0rd!' --confpath "$DIR" 'Тестовая вики' Admin >"$DIR/install.log" 2>&1 \
    || { tail_of "$DIR/install.log"; rm -f "$DIR/LocalSettings.php"; die "install.php failed; see $DIR/install.log"; }
  cat >>"$DIR/LocalSettings.php" <<PHP

# wikitape live wiki (scripts/live-wiki.sh)
\$wgLocaltimezone = 'UTC';
\$wgDebugToolbar = true;
\$wgShowExceptionDetails = true;
\$wgEnableUploads = true;
\$wgUploadDirectory = "$DIR/images";
\$wgUploadPath = "/wiki/images";
\$wgCookiePrefix = 'wikidb';
\$wgGroupPermissions['sysop']['hideuser'] = true;
\$wgGrantPermissions['blockusers']['hideuser'] = true;
\$wgGroupPermissions['sysop']['suppressionlog'] = true;
\$wgGroupPermissions['sysop']['suppressrevision'] = true;
\$wgRateLimits = [];
\$wgPasswordAttemptThrottle = [];
\$wgAccountCreationThrottle = 0;
wfLoadExtension( 'SpamBlacklist' );
\$wgBlacklistSettings = [ 'spam' => [ 'files' => [ "$DIR/spam-blacklist.txt" ] ] ];
\$wgSpamBlacklistFiles = [ "$DIR/spam-blacklist.txt" ];
\$wgLogSpamBlacklistHits = true;
PHP
  printf '%s\n' '# local spam blacklist' 'casino-spam\.example' 'badpills\.test' '\bfree-money\b' >"$DIR/spam-blacklist.txt"
}

cache_settings() { # once, in any wiki (older ones too): a cache directory of its own
  # Debian's PlatformSettings.php gives every MediaWiki /var/cache/mediawiki: the 1.39 and 1.43 wikis
  # then shared their localisation cache files, and each found the other's out of date (their message
  # folders differ) and rebuilt them: once at every switch from one to the other, and on nearly
  # every request while both were asked at once (test:live's two lanes).
  grep -q 'wikitape live wiki: a cache directory' "$DIR/LocalSettings.php" && return
  mkdir -p "$DIR/cache"
  cat >>"$DIR/LocalSettings.php" <<PHP

# wikitape live wiki: a cache directory of its own (not Debian's /var/cache/mediawiki, which other
# MediaWikis on this machine share)
\$wgCacheDirectory = "$DIR/cache";
PHP
}

fault_settings() { # once, in any wiki (older ones too): faults on demand, only for a server started with WIKITAPE_LIVE_FAULT
  grep -q 'WIKITAPE_LIVE_FAULT' "$DIR/LocalSettings.php" && return
  cat >>"$DIR/LocalSettings.php" <<'PHP'

# wikitape live wiki: a wiki's bad days, only in a second server started with WIKITAPE_LIVE_FAULT
# (test/live/faults.test.ts); the server on the usual port never sees them.
if ( getenv( 'WIKITAPE_LIVE_FAULT' ) ) {
	$wgServer = getenv( 'WIKITAPE_LIVE_SERVER' ) ?: $wgServer;
	switch ( getenv( 'WIKITAPE_LIVE_FAULT' ) ) {
		case 'readonly':
			$wgReadOnly = getenv( 'WIKITAPE_LIVE_REASON' );
			break;
		case 'ratelimited':
			$wgMainCacheType = CACHE_DB; // the limiter counts in the object cache
			$wgRateLimits = [ 'edit' => [ 'user' => [ 1, 3600 ] ], 'move' => [ 'user' => [ 1, 3600 ] ] ];
			foreach ( array_keys( $wgGroupPermissions ) as $group ) {
				$wgGroupPermissions[$group]['noratelimit'] = false;
			}
			break;
		case 'maxlag':
			$wgHooks['ApiMaxLagInfo'][] = static function ( &$lagInfo ) {
				$lagInfo = [ 'host' => getenv( 'WIKITAPE_LIVE_LAG_HOST' ), 'lag' => (int)getenv( 'WIKITAPE_LIVE_LAG' ), 'type' => 'db' ];
			};
			break;
	}
}
PHP
}

start_server() {
  running && return
  listening && die "port $PORT was taken while installing"
  log "starting php -S on 127.0.0.1:$PORT"
  # Its own session (so stop can end the server with its workers as one process group); the
  # session leader writes its own pid, which stays the server's pid through exec.
  # (fd 9, the lock, is closed for it: a server holding it would block every later run)
  (cd "$DIR/docroot" && PHP_CLI_SERVER_WORKERS=4 exec setsid bash -c 'echo $$ >"$1/server.pid"; shift; exec "$@"' _ "$DIR" \
    php -S "127.0.0.1:$PORT" -t "$DIR/docroot" >"$DIR/server.log" 2>&1 </dev/null &) 9>&-
  for _ in $(seq 150); do running && api_ok && return; sleep 0.2; done
  tail_of "$DIR/server.log"; die "the wiki did not answer on $API; see $DIR/server.log"
}

bot_password() { # appid grants → prints the new password (an existing appid is replaced: its password cannot be read back)
  php "$MW"/maintenance/sql.php --query "DELETE FROM bot_passwords WHERE bp_app_id = '$1'" >/dev/null 2>&1 || true
  local out pass
  out=$(php "$MW"/maintenance/createBotPassword.php --appid "$1" --grants "$2" Admin 2>&1) || true
  pass=$(sed -n "s/.*password:'\(.*\)'.*/\1/p" <<<"$out")
  [ -n "$pass" ] || die "could not create the bot password $1: $out"
  printf '%s' "$pass"
}

populate() {
  [ -f "$DIR/populated" ] && return
  log "filling the wiki with data (under a minute)"
  local seed
  seed=$(bot_password seed basic,highvolume,editpage,createeditmovepage,uploadfile,uploadeditmovefile,protect,blockusers,delete,createaccount,oversight,editprotected)
  touch "$DIR/populating" # left behind by a failed or interrupted run: the next start begins afresh
  API_URL="$API" BOT_USER="Admin@seed" BOT_PASS="$seed" node "$HERE/livewiki/populate.mjs" >"$DIR/populate.log" 2>&1 \
    || { tail_of "$DIR/populate.log"; die "populating failed; see $DIR/populate.log (the next start begins afresh)"; }
  mv "$DIR/populating" "$DIR/populated"
}

# Language links need interwiki prefixes that are language codes: Debian's install fills the table
# from maintenance/interwiki.list, which has none. Local (iw_local), as a wiki family's are.
LANGUAGE_PREFIXES="('en','https://en.wikipedia.org/wiki/\$1','https://en.wikipedia.org/w/api.php','enwiki',1,0),\
('de','https://de.wikipedia.org/wiki/\$1','https://de.wikipedia.org/w/api.php','dewiki',1,0),\
('fr','https://fr.wikipedia.org/wiki/\$1','https://fr.wikipedia.org/w/api.php','frwiki',1,0),\
('uk','https://uk.wikipedia.org/wiki/\$1','https://uk.wikipedia.org/w/api.php','ukwiki',1,0)"

populate_links() { # categories, templates, page properties, language and interwiki links: once, also in a wiki filled before they were added
  [ -f "$DIR/populated-links" ] && return
  log "adding categories, templates, page properties, language and interwiki links"
  php "$MW"/maintenance/sql.php --query "INSERT OR IGNORE INTO interwiki (iw_prefix, iw_url, iw_api, iw_wikiid, iw_local, iw_trans) VALUES $LANGUAGE_PREFIXES" >"$DIR/populate-links.log" 2>&1 \
    || { tail_of "$DIR/populate-links.log"; die "could not add the language prefixes; see $DIR/populate-links.log"; }
  local seed
  seed=$(bot_password seed basic,highvolume,editpage,createeditmovepage)
  API_URL="$API" BOT_USER="Admin@seed" BOT_PASS="$seed" node "$HERE/livewiki/populate-links.mjs" >>"$DIR/populate-links.log" 2>&1 \
    || { tail_of "$DIR/populate-links.log"; die "adding the links failed; see $DIR/populate-links.log (the next start tries again)"; }
  touch "$DIR/populated-links"
}

credentials() { # bot passwords for tests that log in (record mode must never store them)
  local pass
  if [ ! -f "$DIR/bot-credentials.json" ]; then
    pass=$(bot_password wikitape basic,highvolume)
    printf '{"user":"Admin@wikitape","password":"%s"}\n' "$pass" >"$DIR/bot-credentials.json.tmp"
    mv "$DIR/bot-credentials.json.tmp" "$DIR/bot-credentials.json"
  fi
  if [ ! -f "$DIR/editor-credentials.json" ]; then # one that may edit (the client tests' one edit)
    pass=$(bot_password wikitape-editor basic,highvolume,editpage,createeditmovepage)
    printf '{"user":"Admin@wikitape-editor","password":"%s"}\n' "$pass" >"$DIR/editor-credentials.json.tmp"
    mv "$DIR/editor-credentials.json.tmp" "$DIR/editor-credentials.json"
  fi
  if [ ! -f "$DIR/admin-credentials.json" ]; then # one that may also block (the live wiki changed under a cassette)
    pass=$(bot_password wikitape-admin basic,highvolume,editpage,createeditmovepage,blockusers)
    printf '{"user":"Admin@wikitape-admin","password":"%s"}\n' "$pass" >"$DIR/admin-credentials.json.tmp"
    mv "$DIR/admin-credentials.json.tmp" "$DIR/admin-credentials.json"
  fi
}

stop_server() {
  local pid stat cmd
  pid=$(cat "$DIR/server.pid" 2>/dev/null || true)
  # only the php -S whose session we started (the pid file may be stale and the pid reused)
  if [[ $pid =~ ^[0-9]+$ ]]; then
    stat=$(cat "/proc/$pid/stat" 2>/dev/null || true); stat=${stat##*) }  # fields from 3 on: state ppid pgrp session
    cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
    if [ "$(cut -d' ' -f4 <<<"$stat")" = "$pid" ] && [[ $cmd == "php -S 127.0.0.1:$PORT "* ]]; then
      kill -- -"$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$DIR/server.pid"
  for _ in $(seq 50); do running || return 0; sleep 0.1; done
  die "the wiki in $DIR still answers on port $PORT (started by something else?)"
}

wipe() {
  [ -e "$DIR" ] || return 0
  [ -e "$OURS" ] || [ -L "$DIR/docroot/wiki" ] || die "$DIR does not look like a live wiki made by this script; not wiping it"
  rm -rf "$DIR"
}

start() {
  # (older copies of this script wrote no id file)
  if [ -d "$DIR/docroot" ] && [ ! -f "$DIR/docroot/$ID_FILE" ]; then printf '%s\n' "$DIR" >"$DIR/docroot/$ID_FILE"; fi
  if running; then [ -f "$DIR/populated" ] && [ -f "$DIR/populated-links" ] && [ -f "$DIR/bot-credentials.json" ] && [ -f "$DIR/editor-credentials.json" ] && [ -f "$DIR/admin-credentials.json" ] && cache_settings && fault_settings && return
  elif listening; then die "port $PORT is taken by something other than the wiki in $DIR; set WIKITAPE_LIVE_PORT (or WIKITAPE_LIVE_DIR to that wiki's directory; for 1.43 WIKITAPE_LIVE143_PORT, WIKITAPE_LIVE143_DIR)"; fi
  install_packages
  install_mw143
  if [ -f "$DIR/populating" ]; then log "a previous fill did not finish: starting afresh"; stop_server; wipe; fi
  install_wiki
  cache_settings
  fault_settings
  start_server
  populate
  populate_links
  credentials
}

# One run at a time per directory (parallel test processes may all call start).
mkdir -p "$(dirname "$DIR")"
exec 9>"$DIR.lock"
flock 9

case "${1:-start}" in
  start) start; echo "$API" ;;
  stop) stop_server ;;
  reset) stop_server; wipe; start; echo "$API" ;;
  *) echo "usage: $0 start|stop|reset" >&2; exit 2 ;;
esac
