<?php
// Oracle for test/unit/i18n/numbers.test.ts: Language::formatNum, formatSize, listToText and
// commaList in each row's language for the inputs of each (a JSON object of lists on stdin) in the
// MediaWiki of scripts/live-wiki.sh. Run by scripts/generate/run.mjs numbers.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

class NumbersOracle extends Maintenance {
	public function execute() {
		$in = json_decode( file_get_contents( 'php://stdin' ), true );
		$factory = MediaWiki\MediaWikiServices::getInstance()->getLanguageFactory();
		$out = [];
		foreach ( $in as $fn => $cases ) {
			foreach ( $cases as [ $lang, $value ] ) {
				$out[$fn][] = [ $lang, $value, $factory->getLanguage( $lang )->$fn( $value ) ];
			}
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION ), "\n";
	}
}

$maintClass = NumbersOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
