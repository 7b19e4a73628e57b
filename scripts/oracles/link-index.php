<?php
// Oracle for test/unit/modules/link-index.test.ts: LinkFilter::makeIndexes of each URL read
// (a JSON array) from stdin, as the MediaWiki of scripts/live-wiki.sh computes it.
//   node -e 'console.log(JSON.stringify(Object.keys(require("./test/unit/modules/link-index-php.json"))))' \
//     | MW_CONFIG_FILE=/tmp/wikitape-live/LocalSettings.php php scripts/oracles/link-index.php \
//     > test/unit/modules/link-index-php.json
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

class LinkIndexOracle extends Maintenance {
	public function execute() {
		$urls = json_decode( file_get_contents( 'php://stdin' ), true );
		$out = [];
		foreach ( $urls as $url ) {
			$out[$url] = LinkFilter::makeIndexes( $url );
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_PRETTY_PRINT ), "\n";
	}
}

$maintClass = LinkIndexOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
