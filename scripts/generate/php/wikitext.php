<?php
// Oracle for test/unit/i18n/wikitext-html.test.ts: RawMessage( $wikitext )->parse() (user language
// en, content language ru) for each input (a JSON array on stdin); [wikitext, html].
// Run by scripts/generate/run.mjs wikitext.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

class WikitextOracle extends Maintenance {
	public function execute() {
		$out = [];
		foreach ( json_decode( file_get_contents( 'php://stdin' ), true ) as $v ) {
			$out[] = [ $v, ( new RawMessage( $v ) )->inLanguage( 'en' )->parse() ];
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
	}
}

$maintClass = WikitextOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
