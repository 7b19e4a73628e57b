<?php
// Oracle for test/unit/modules/link-index.test.ts: LinkFilter::makeIndexes of each URL read
// (a JSON array) from stdin, as the MediaWiki of scripts/live-wiki.sh computes it.
// Run by scripts/generate/run.mjs link-index.
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
