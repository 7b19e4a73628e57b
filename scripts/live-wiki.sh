#!/usr/bin/env bash
# A real MediaWiki 1.39 (Debian's package) on loopback, filled with data, for the live test tier
# (which also needs Debian's python3-mwclient and chromium: installed here too).
#   live-wiki.sh start   install if needed, start, populate once; prints the api.php URL last
#   live-wiki.sh stop    stop the server
#   live-wiki.sh reset   stop, wipe, start again
# Env: WIKITAPE_LIVE_DIR (default /tmp/wikitape-live), WIKITAPE_LIVE_PORT (default 8088).
set -euo pipefail
DIR=${WIKITAPE_LIVE_DIR:-/tmp/wikitape-live}
PORT=${WIKITAPE_LIVE_PORT:-8088}
MW=${MW_HOME:-/usr/share/mediawiki}
HERE=$(cd "$(dirname "$0")" && pwd)
API="http://127.0.0.1:$PORT/wiki/api.php"
export MW_CONFIG_FILE="$DIR/LocalSettings.php"

log() { printf 'live-wiki: %s\n' "$*" >&2; }

install_packages() {
  # (grep reads all of php -m: with -q it would stop early and pipefail would see php's SIGPIPE)
  if [ -d "$MW" ] && command -v php >/dev/null && php -m 2>/dev/null | grep -i sqlite3 >/dev/null \
    && /usr/bin/python3 -c 'import mwclient' 2>/dev/null && command -v chromium >/dev/null; then return; fi
  log "installing MediaWiki, and python3-mwclient and chromium for the client tests, from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    mediawiki php-cli php-sqlite3 php-intl php-mbstring php-xml curl python3-mwclient chromium >/dev/null
}

install_wiki() {
  [ -f "$DIR/LocalSettings.php" ] && return
  log "installing a wiki into $DIR"
  mkdir -p "$DIR"/data "$DIR"/docroot "$DIR"/images
  ln -sfn "$MW" "$DIR"/docroot/wiki
  php "$MW"/maintenance/install.php --dbtype sqlite --dbpath "$DIR/data" --dbname wikidb \
    --server "http://127.0.0.1:$PORT" --scriptpath /wiki --lang ru \
    --pass 'Adm1n-Passw0rd!' --confpath "$DIR" 'Тестовая вики' Admin >"$DIR/install.log" 2>&1
  cat >>"$DIR/LocalSettings.php" <<PHP
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

running() { curl -s -o /dev/null -m 2 "$API"; }

start_server() {
  running && return
  log "starting php -S on 127.0.0.1:$PORT"
  (cd "$DIR/docroot" && PHP_CLI_SERVER_WORKERS=4 setsid php -S "127.0.0.1:$PORT" -t "$DIR/docroot" \
    >"$DIR/server.log" 2>&1 </dev/null & echo $! >"$DIR/server.pid")
  for _ in $(seq 100); do running && return; sleep 0.2; done
  log "the wiki did not answer; see $DIR/server.log"; exit 1
}

bot_password() { # appid grants → password (callers pick a fresh appid: an existing one cannot be read back)
  local pass
  pass=$(php "$MW"/maintenance/createBotPassword.php --appid "$1" --grants "$2" Admin | sed -n "s/.*password:'\(.*\)'.*/\1/p")
  [ -n "$pass" ] || { log "could not create a bot password"; exit 1; }
  printf '%s' "$pass"
}

populate() {
  [ -f "$DIR/populated" ] && return
  log "filling the wiki with data (about a minute)"
  local app="seed$(date +%s)" seed
  seed=$(bot_password "$app" basic,highvolume,editpage,createeditmovepage,uploadfile,uploadeditmovefile,protect,blockusers,delete,createaccount,oversight,editprotected)
  API_URL="$API" BOT_USER="Admin@$app" BOT_PASS="$seed" node "$HERE/livewiki/populate.mjs" >"$DIR/populate.log" 2>&1
  touch "$DIR/populated"
}

credentials() { # a bot password for tests that log in (record mode must never store it)
  [ -f "$DIR/bot-credentials.json" ] && return
  local app="wikitape$(date +%s)" pass
  pass=$(bot_password "$app" basic,highvolume)
  printf '{"user":"Admin@%s","password":"%s"}\n' "$app" "$pass" >"$DIR/bot-credentials.json"
}

stop_server() {
  if [ -f "$DIR/server.pid" ]; then kill -- -"$(cat "$DIR/server.pid")" 2>/dev/null || true; rm -f "$DIR/server.pid"; fi
  for _ in $(seq 25); do running || return 0; sleep 0.2; done
}

case "${1:-start}" in
  start) install_packages; install_wiki; start_server; populate; credentials; echo "$API" ;;
  stop) stop_server ;;
  reset) stop_server; rm -rf "$DIR"; install_packages; install_wiki; start_server; populate; credentials; echo "$API" ;;
  *) echo "usage: $0 start|stop|reset" >&2; exit 2 ;;
esac
