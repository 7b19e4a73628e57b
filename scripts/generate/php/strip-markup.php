<?php
// Oracle for test/unit/i18n/strip-markup.test.ts: ApiErrorFormatter::stripMarkup of each input
// (a JSON array on stdin) in the MediaWiki of scripts/live-wiki.sh; [input, output].
// Run by scripts/generate/run.mjs strip-markup.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

class StripMarkupOracle extends Maintenance {
	public function execute() {
		$strip = new ReflectionMethod( ApiErrorFormatter::class, 'stripMarkup' );
		$strip->setAccessible( true );
		$f = new ApiErrorFormatter( new ApiResult( false ), MediaWiki\MediaWikiServices::getInstance()->getLanguageFactory()->getLanguage( 'en' ), 'plaintext' );
		$out = [];
		foreach ( json_decode( file_get_contents( 'php://stdin' ), true ) as $v ) {
			$out[] = [ $v, $strip->invoke( $f, $v ) ];
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
	}
}

$maintClass = StripMarkupOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
