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
  // One pass into a buffer (a UTF-16 unit is at most 3 UTF-8 bytes): no per-byte array, no slices.
  const out = Buffer.allocUnsafe(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2b && plusIsSpace) out[n++] = 0x20;
    else if (c === 0x25 && i + 2 < s.length && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0) {
      out[n++] = hexValue(s.charCodeAt(i + 1)) * 16 + hexValue(s.charCodeAt(i + 2));
      i += 2;
    } else if (c < 0x80) out[n++] = c;
    else {
      // Non-ASCII characters that arrived unencoded: keep them as their UTF-8 bytes.
      const cp = s.codePointAt(i) ?? c;
      if (cp > 0xffff) i++;
      n += out.write(String.fromCodePoint(cp), n, 'utf8');
    }
  }
  const bytes = out.subarray(0, n);
  try {
    return [strict.decode(bytes), false];
  } catch {
    return [decoder.decode(bytes), true];
  }
}

/** The value of a hex digit's character code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
