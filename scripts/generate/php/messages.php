<?php
// Oracle for test/unit/i18n/message.test.ts: Message::text() and ::parse() of each [key, lang,
// params] (a JSON array on stdin) in the MediaWiki of scripts/live-wiki.sh; [key, lang, params,
// text, html] with html left out where it equals text. Params: a string or number as is,
// {plaintext}, {num}, {list, type} as Message::plaintextParam, numParam and listParam.
// Run by scripts/generate/run.mjs messages.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

class MessagesOracle extends Maintenance {
	private function param( $p ) {
		if ( !is_array( $p ) ) {
			return $p;
		}
		if ( isset( $p['plaintext'] ) ) {
			return Message::plaintextParam( $p['plaintext'] );
		}
		if ( isset( $p['num'] ) ) {
			return Message::numParam( $p['num'] );
		}
		return Message::listParam( $p['list'], $p['type'] ?? 'text' );
	}

	public function execute() {
		$out = [];
		foreach ( json_decode( file_get_contents( 'php://stdin' ), true ) as [ $key, $lang, $params ] ) {
			$msg = wfMessage( $key )->params( array_map( [ $this, 'param' ], $params ) )->inLanguage( $lang );
			$text = $msg->text();
			$html = $msg->parse();
			$out[] = $html === $text ? [ $key, $lang, $params, $text ] : [ $key, $lang, $params, $text, $html ];
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION ), "\n";
	}
}

$maintClass = MessagesOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
