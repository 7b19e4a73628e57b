<?php
// Oracle for test/unit/i18n/duration.test.ts: Language::formatDurationBetweenTimestamps of
// MediaWiki 1.43 (the form blocks use from 1.43 on: DateTime::diff in UTC) in en and ru for each
// [startMs, endMs] (a JSON array on stdin); [startMs, endMs, en, ru]. Run against the 1.43 wiki of
// scripts/live-wiki.sh (WIKITAPE_LIVE_MW=1.43): scripts/generate/run.mjs durations.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

class DurationsOracle extends Maintenance {
	public function execute() {
		$factory = MediaWiki\MediaWikiServices::getInstance()->getLanguageFactory();
		$out = [];
		foreach ( json_decode( file_get_contents( 'php://stdin' ), true ) as [ $a, $b ] ) {
			$ts = static fn ( $ms ) => intdiv( $ms, 1000 );
			$row = [ $a, $b ];
			foreach ( [ 'en', 'ru' ] as $lang ) {
				$row[] = $factory->getLanguage( $lang )->formatDurationBetweenTimestamps( $ts( $a ), $ts( $b ) );
			}
			$out[] = $row;
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
	}
}

$maintClass = DurationsOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
