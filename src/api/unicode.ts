/**
 * WebRequest's Unicode clean-up (UtfNormal\Validator::cleanUp): C0 controls other than
 * tab, LF and CR become U+FFFD, and the text is NFC-normalised.
 */
const BAD_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

export function cleanUp(value: string): string {
  if (/^[\u0009\u000a\u000d\u0020-\u007e]*$/.test(value)) return value;
  return value.replace(BAD_CONTROLS, '\ufffd').normalize('NFC');
}
