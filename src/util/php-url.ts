/**
 * PHP's URL encoding functions (urlencode, rawurlencode, urldecode) and MediaWiki's wfUrlencode,
 * on UTF-8 bytes as PHP works.
 */

/** PHP urlencode: bytes other than `A-Za-z0-9-_.` as upper-case `%XX`, space as `+`. */
export function phpUrlencode(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    if ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2d || byte === 0x5f || byte === 0x2e) {
      out += String.fromCharCode(byte);
    } else if (byte === 0x20) {
      out += '+';
    } else {
      out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

/** PHP rawurlencode (RFC 3986 unreserved characters kept, space as `%20`). */
export function rawurlencode(s: string): string {
  return phpUrlencode(s).replace(/\+/g, '%20').replace(/%7E/g, '~');
}

const KEPT: Readonly<Record<string, string>> = {
  '%3B': ';', '%40': '@', '%24': '$', '%21': '!', '%2A': '*', '%28': '(', '%29': ')', '%2C': ',', '%2F': '/', '%7E': '~', '%3A': ':',
};

/** wfUrlencode: urlencode, then `; @ $ ! * ( ) , / ~ :` put back (not on IIS 7, which we are not). */
export function wfUrlencode(s: string): string {
  return phpUrlencode(s).replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/g, (m) => KEPT[m]!);
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const HEX = /^[0-9A-Fa-f]{2}$/;

/** Percent-decodes like PHP's urldecode: `+` is a space, a bad `%xx` stays literal, bytes are UTF-8. */
export function phpUrlDecode(s: string): string {
  return decodeChecked(s)[0];
}

/** PHP rawurldecode: as urldecode, but `+` stays `+`. */
export function rawurldecode(s: string): string {
  return decodeChecked(s, false)[0];
}

/** phpUrlDecode, also telling whether the bytes were invalid UTF-8 (replaced by U+FFFD). */
export function decodeChecked(s: string, plusIsSpace = true): [string, boolean] {
  if (!s.includes('%') && !(plusIsSpace && s.includes('+'))) return [s, false];
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2b && plusIsSpace) bytes.push(0x20);
    else if (c === 0x25 && HEX.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else {
      // Non-ASCII characters that arrived unencoded: keep them as their UTF-8 bytes.
      const cp = s.codePointAt(i) ?? c;
      if (cp > 0xffff) i++;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
    }
  }
  const arr = Uint8Array.from(bytes);
  try {
    return [strict.decode(arr), false];
  } catch {
    return [decoder.decode(arr), true];
  }
}
