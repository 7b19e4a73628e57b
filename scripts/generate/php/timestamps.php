<?php
// Oracle for test/unit/util/timestamp.test.ts: each input (a JSON array on stdin) read as
// ParamValidator's TimestampDef reads it (wikimedia/timestamp as bundled with MediaWiki): 'now' and
// falsy values are the current time, faked to 2024-05-01T00:00:00Z; [input, TS_MW or null].
// Run by scripts/generate/run.mjs timestamps.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';
use Wikimedia\Timestamp\ConvertibleTimestamp;
use Wikimedia\Timestamp\TimestampException;

class TimestampOracle extends Maintenance {
	public function execute() {
		ConvertibleTimestamp::setFakeTime( '20240501000000' );
		$out = [];
		foreach ( json_decode( file_get_contents( 'php://stdin' ), true ) as $v ) {
			try {
				// TimestampDef::validate: 'now' and empty values mean the current time
				$ts = new ConvertibleTimestamp( $v === 'now' || !$v ? false : $v );
				$out[] = [ $v, $ts->getTimestamp( TS_MW ) ];
			} catch ( TimestampException $e ) {
				$out[] = [ $v, null ];
			}
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
	}
}

$maintClass = TimestampOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
