<?php
// Oracle for src/util/php-url.ts and src/util/escape.ts: PHP's own answers.
// Usage: php scripts/generate/php-url.php > test/unit/util/php-url-php.json
$inputs = ['a b+c', 'Заглавная страница', '~-_.!*\'();:@&=+$,/?#[]', "tab\there", '100%', '%zz%4', "a\u{1F600}b", "x'\"<>&y", "%C3%A9+%2B", ''];
$out = [];
foreach ($inputs as $s) {
  $out[] = [
    'input' => $s,
    'urlencode' => urlencode($s),
    'rawurlencode' => rawurlencode($s),
    'urldecode' => urldecode($s),
    'htmlspecialchars' => htmlspecialchars($s, ENT_QUOTES),
  ];
}
echo json_encode($out, JSON_UNESCAPED_UNICODE | JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
