<?php
// Oracle for test/unit/util/ip.test.ts: wikimedia/ip-utils (as bundled with MediaWiki) for each
// input read as a JSON array from stdin: [input, isIPAddress, isIPv4, isIPv6, isValid,
// isValidRange, sanitizeIP, toHex, parseCIDR [network, bits] | null, parseRange [start, end] | null,
// formatHex of both ends | null]. Run by scripts/generate/run.mjs ip.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';
use Wikimedia\IPUtils;

class IpOracle extends Maintenance {
	public function execute() {
		$out = [];
		foreach ( json_decode( file_get_contents( 'php://stdin' ), true ) as $v ) {
			[ $net, $bits ] = IPUtils::parseCIDR( $v );
			[ $start, $end ] = IPUtils::parseRange( $v );
			$hex = IPUtils::toHex( $v );
			$out[] = [
				$v, IPUtils::isIPAddress( $v ), IPUtils::isIPv4( $v ), IPUtils::isIPv6( $v ), IPUtils::isValid( $v ),
				IPUtils::isValidRange( $v ), IPUtils::sanitizeIP( $v ), $hex === false ? null : $hex,
				$net === false ? null : [ (string)$net, (int)$bits ],
				$start === false ? null : [ $start, $end ],
				$start === false ? null : [ IPUtils::formatHex( $start ), IPUtils::formatHex( $end ) ],
			];
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
	}
}

$maintClass = IpOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
