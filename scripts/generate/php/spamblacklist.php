<?php
// Oracle for test/unit/modules/spamblacklist-match.test.ts: SpamBlacklist::filter (title null) of
// extensions/SpamBlacklist in the MediaWiki of scripts/live-wiki.sh, over the lines of each case
// (a JSON array of {urls, black, white} on stdin: black and white are lists of line lists, each
// list batched apart by SpamRegexBatch, as the local message and each shared file are).
// Run by scripts/generate/run.mjs spamblacklist.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';
use MediaWiki\Extension\SpamBlacklist\SpamBlacklist;
use MediaWiki\Extension\SpamBlacklist\SpamRegexBatch;

class SpamBlacklistOracle extends Maintenance {
	public function execute() {
		$user = User::newFromName( '127.0.0.1', false );
		$out = [];
		foreach ( json_decode( file_get_contents( 'php://stdin' ), true ) as $case ) {
			// The blacklist with the case's lines instead of the wiki's (a class made here, once
			// MediaWiki's autoloader knows the extension).
			$list = new class( [] ) extends SpamBlacklist {
				public array $white = [];

				public function setLines( array $black, array $white ): void {
					$this->regexes = [];
					foreach ( $black as $lines ) {
						$this->regexes = array_merge( $this->regexes, SpamRegexBatch::regexesFromText( implode( "\n", $lines ), $this ) );
					}
					foreach ( $white as $lines ) {
						$this->white = array_merge( $this->white, SpamRegexBatch::regexesFromText( implode( "\n", $lines ), $this ) );
					}
				}

				public function getWhitelists() {
					return $this->white;
				}
			};
			$list->setLines( $case['black'], $case['white'] );
			$matches = $list->filter( $case['urls'], null, $user, true );
			// ApiResult cleans strings up (invalid UTF-8 as U+FFFD, NFC), as action=spamblacklist shows them.
			$matches = $matches === false ? false : array_map( [ UtfNormal\Validator::class, 'cleanUp' ], $matches );
			$case['expected'] = $matches === false ? [ 'result' => 'ok' ] : [ 'result' => 'blacklisted', 'matches' => $matches ];
			$out[] = $case;
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR ), "\n";
	}
}

$maintClass = SpamBlacklistOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
