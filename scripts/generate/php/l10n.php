<?php
// src data: l10n/<version>.json, every language MediaWiki ships, as the wiki's own Language and
// LocalisationCache give it (fallback chain, direction, plural rules, number formatting, dates,
// link trail, namespace names) plus each language's own texts of the message keys on stdin
// ({"keys": [...]}). The LocalisationCache runs without a store (LCStoreNull), so the wiki's
// cache is neither read nor written. Run by scripts/generate/l10n.mjs.
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

use MediaWiki\MediaWikiServices;

class L10nData extends Maintenance {
	public function finalSetup( $settingsBuilder = null ) {
		$settingsBuilder = $settingsBuilder ?? $GLOBALS['wgSettings'];
		parent::finalSetup( $settingsBuilder );
		$conf = $settingsBuilder->getConfig()->get( 'LocalisationCacheConf' );
		$conf['storeClass'] = LCStoreNull::class;
		$conf['store'] = 'array';
		$settingsBuilder->overrideConfigValues( [ 'LocalisationCacheConf' => $conf ] );
	}

	/** Language codes MediaWiki ships: a name, an i18n file or a Messages file; qqx; not qqq. */
	private function codes(): array {
		global $IP;
		$utils = MediaWikiServices::getInstance()->getLanguageNameUtils();
		$codes = array_keys( $utils->getLanguageNames( null, 'mw' ) );
		foreach ( glob( "$IP/languages/i18n/*.json" ) as $f ) {
			$codes[] = basename( $f, '.json' );
		}
		foreach ( glob( "$IP/languages/messages/Messages*.php" ) as $f ) {
			$codes[] = strtr( strtolower( basename( $f, '.php' ) ), [ 'messages' => '', '_' => '-' ] );
		}
		$codes[] = 'qqx';
		$codes = array_values( array_unique( array_filter( $codes, static function ( $c ) use ( $utils ) {
			return $c !== 'qqq' && $utils->isValidBuiltInCode( $c );
		} ) ) );
		sort( $codes );
		return $codes;
	}

	/** What ICU's NumberFormatter, as Language::formatNum makes it, prints with. */
	private function icu( Language $lang ): array {
		$fmt = ( new ReflectionMethod( $lang, 'getNumberFormatter' ) )->invoke( $lang );
		$probe = clone $fmt;
		$probe->setAttribute( NumberFormatter::MIN_INTEGER_DIGITS, 4 );
		$probe->setAttribute( NumberFormatter::FRACTION_DIGITS, 0 );
		return [
			'dec' => $fmt->getSymbol( NumberFormatter::DECIMAL_SEPARATOR_SYMBOL ),
			'group' => $fmt->getSymbol( NumberFormatter::GROUPING_SEPARATOR_SYMBOL ),
			'minus' => $fmt->getSymbol( NumberFormatter::MINUS_SIGN_SYMBOL ),
			'zero' => $fmt->getSymbol( NumberFormatter::ZERO_DIGIT_SYMBOL ),
			'g1' => $fmt->getAttribute( NumberFormatter::GROUPING_USED ) ? $fmt->getAttribute( NumberFormatter::GROUPING_SIZE ) : 0,
			'g2' => $fmt->getAttribute( NumberFormatter::SECONDARY_GROUPING_SIZE ),
			// ICU's own minimum grouping (CLDR minimumGroupingDigits): 1234 left ungrouped
			'min2' => strpos( $probe->format( 1234 ), $fmt->getSymbol( NumberFormatter::GROUPING_SEPARATOR_SYMBOL ) ) === false
				&& $fmt->getAttribute( NumberFormatter::GROUPING_SIZE ) === 3,
		];
	}

	/** Behaviours a Language subclass changes that wikitape's texts meet (null: none). */
	private function quirks( Language $lang ): array {
		$q = [];
		if ( $lang instanceof LanguageKm || $lang instanceof LanguageMy ) {
			$q[] = 'formatnum-noseparators';
		}
		if ( $lang instanceof LanguageKsh ) {
			$q[] = 'plural-ksh';
		}
		$base = ( new ReflectionClass( Language::class ) )->getName();
		if ( ( new ReflectionMethod( $lang, 'convertGrammar' ) )->getDeclaringClass()->getName() !== $base ) {
			$q[] = 'grammar';
		}
		if ( MediaWikiServices::getInstance()->getLanguageConverterFactory()->getLanguageConverter( $lang )->hasVariants() ) {
			$q[] = 'variants';
		}
		return $q;
	}

	private function record( string $code, array $in ): array {
		$services = MediaWikiServices::getInstance();
		$lang = $services->getLanguageFactory()->getLanguage( $code );
		$lc = $services->getLocalisationCache();
		// What MessageCache takes from the LocalisationCache: the text the chain gives, and whether
		// the language itself has it (its source).
		$own = [];
		$merged = [];
		if ( $code !== 'qqx' ) {
			foreach ( $in['keys'] as $key ) {
				$found = $lc->getSubitemWithSource( $code, 'messages', $key );
				if ( $found === null ) {
					continue;
				}
				$merged[$key] = $found[0];
				if ( $found[1] === $code ) {
					$own[$key] = $found[0];
				}
			}
		}
		$aliases = $lc->getItem( $code, 'specialPageAliases' ) ?: [];
		$special = [];
		foreach ( $in['specialPages'] as $name ) {
			if ( isset( $aliases[$name] ) ) {
				$special[$name] = $aliases[$name];
			}
		}
		$rec = [
			'fallback' => $lang->getFallbackLanguages(),
			'rtl' => $lang->isRTL(),
			'html' => $lang->getHtmlCode(),
			'quirks' => $this->quirks( $lang ),
			'plural' => array_values( $lang->getCompiledPluralRules() ?: [] ),
			'separators' => $lang->separatorTransformTable() ?: null,
			'digits' => $lang->digitTransformTable() ?: null,
			'minimumGroupingDigits' => $lang->minimumGroupingDigits(),
			'digitGroupingPattern' => $lang->digitGroupingPattern(),
			'icu' => $this->icu( $lang ),
			'dateFormat' => $lang->getDefaultDateFormat(),
			'fallback8bitEncoding' => $lang->fallback8bitEncoding(),
			'linkTrail' => $lang->linkTrail(),
			'namespaces' => $lc->getItem( $code, 'namespaceNames' ),
			'namespaceAliases' => $lc->getItem( $code, 'namespaceAliases' ) ?: (object)[],
			'namespaceGenderAliases' => $lc->getItem( $code, 'namespaceGenderAliases' ) ?: (object)[],
			'grammar' => $lang->getGrammarTransformations() ?: (object)[],
			'specialPageAliases' => $special ?: (object)[],
			'messages' => $own ?: (object)[],
			'merged' => $merged ?: (object)[],
		];
		return $rec;
	}

	public function execute() {
		$in = json_decode( file_get_contents( 'php://stdin' ), true );
		$out = [];
		foreach ( $this->codes() as $code ) {
			$out[$code] = $this->record( $code, $in );
		}
		// A code MediaWiki does not ship formats numbers with ICU's default locale.
		$out['_icu-default'] = $this->icu( MediaWikiServices::getInstance()->getLanguageFactory()->getLanguage( 'zz-x-unknown' ) );
		// LanguageFactory::getLanguage reads a deprecated or dummy code as another (als → gsw).
		$out['_code-mapping'] = MediaWikiServices::getInstance()->getMainConfig()->get( 'DummyLanguageCodes' );
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
	}
}

$maintClass = L10nData::class;
require_once RUN_MAINTENANCE_IF_MAIN;
