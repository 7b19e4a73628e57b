<?php
// Oracle for src/pcre/: what PHP's PCRE (non-UTF mode) makes of each case, for test/unit/pcre/translate.test.ts.
// Usage: php scripts/generate/pcre-php.php > test/unit/pcre/pcre-php.json
// [pattern, modifiers, subject] → preg_match result and match[0], preg_replace(…, '', subject)
$cases = [
  ['a(b|c)+d', '', 'xabcbdx'],
  ['(a)\1', '', 'aa'],
  ['(?<n>x)\k<n>', '', 'xx'],
  ['a\Kb', '', 'ab ab'],
  ['[[:alpha:]]+', '', 'ab1cd'],
  ['[[:^digit:]]+', '', '12ab34'],
  ['a b c', 'x', 'abc'],
  ['a # comment' . "\n" . 'b', 'x', 'ab'],
  ['a.+b', 'U', 'aXbYb'],
  ['a.+?b', 'U', 'aXbYb'],
  ['(?>a+)b', '', 'aaab'],
  ['a++b', '', 'aaab'],
  ['\bfoo\b', 'i', 'a FOO b'],
  ['[^a-c]+', '', 'abcdefabc'],
  ['\d{2,3}', '', 'a12345'],
  ['x*', '', 'aaa'],
  ['^$', 'm', "a\n\nb"],
  ['\x41\101\cA', '', "AA\x01"],
  ['(?i)a(?-i)B', '', 'Ab'],
  ['(?i)a(?-i)B', '', 'AB'],
  ['[\w.-]+@[\w-]+', '', 'mail: a.b-c@ex-ample.org'],
  ['пример', 'i', 'ПРИМЕР пример'],
  ['\Qa.b\E+', '', 'a.bb'],
  ['(a)|b', '', 'b'],
  ['\h+', '', "a \t\u{a0}b"],
];
$out = [];
foreach ($cases as [$p, $m, $s]) {
  $re = '/' . str_replace('/', '\/', $p) . '/' . $m;
  $ok = @preg_match($re, $s, $mm);
  $out[] = ['pattern' => $p, 'modifiers' => $m, 'subject' => $s, 'matched' => $ok === 1, 'match' => $ok === 1 ? $mm[0] : null, 'deleted' => @preg_replace($re, '', $s)];
}
echo json_encode($out, JSON_UNESCAPED_UNICODE | JSON_PRETTY_PRINT | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
