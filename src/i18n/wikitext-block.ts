/**
 * BlockLevelPass::doBlockLevels (MediaWiki 1.39): paragraphs, `<pre>` for lines starting with a
 * space, and `*#:;` lists (without the `;term:definition` split).
 */

const LIST_OPEN: Record<string, string> = { '*': '<ul><li>', '#': '<ol><li>', ':': '<dl><dd>', ';': '<dl><dt>' };
const LIST_CLOSE: Record<string, string> = { '*': '</li></ul>', '#': '</li></ol>', ':': '</dd></dl>' };
const OPEN_MATCH = /<((table|h1|h2|h3|h4|h5|h6|pre|p|ul|ol|dl)|\/(td|th)|\/?(tr|caption|dt|dd|li))\b/i;
const CLOSE_MATCH = /<(\/(table|h1|h2|h3|h4|h5|h6|pre|p|ul|ol|dl)|(td|th)|\/?(center|blockquote|div|hr|mw:|aside|figure))\b/i;

export function blockLevels(text: string): string {
  let out = '';
  let lastPrefix = '';
  let lastParagraph = '';
  let pending: string | false = false;
  let inPre = false;
  let inBlockElem = false;
  let dtOpen = false;
  let prefix2 = '';
  const closeParagraph = (atEnd = false): string => {
    const r = lastParagraph ? `</${lastParagraph}>${atEnd ? '' : '\n'}` : '';
    inPre = false;
    lastParagraph = '';
    return r;
  };
  const nextItem = (c: string): string => {
    if (c === '*' || c === '#') return '</li>\n<li>';
    const close = dtOpen ? '</dt>\n' : '</dd>\n';
    dtOpen = c === ';';
    return close + (c === ';' ? '<dt>' : '<dd>');
  };
  const closeList = (c: string): string => {
    if (c === ':' && dtOpen) return (dtOpen = false), '</dt></dl>';
    return LIST_CLOSE[c]!;
  };
  const lines = text.split('\n');
  lines.forEach((line, n) => {
    const notLast = n < lines.length - 1;
    const preClose = /<\/pre/i.test(line);
    const preOpen = /<pre/i.test(line);
    let prefixLength = 0;
    let t = line;
    let prefix = '';
    if (!inPre) {
      prefixLength = /^[*#:;]*/.exec(line)![0].length;
      prefix = line.slice(0, prefixLength);
      prefix2 = prefix.replaceAll(';', ':');
      t = line.slice(prefixLength);
      inPre = preOpen;
    } else prefix2 = '';
    if (prefixLength && lastPrefix === prefix2) {
      out += nextItem(prefix.slice(-1));
      pending = false;
    } else if (prefixLength || lastPrefix.length) {
      let common = 0;
      while (common < Math.min(prefix.length, lastPrefix.length) && prefix[common] === lastPrefix[common]) common++;
      pending = false;
      for (let l = lastPrefix.length; common < l; l--) out += closeList(lastPrefix[l - 1]!);
      if (prefixLength <= common && common > 0) out += nextItem(prefix[common - 1]!);
      if (lastPrefix && prefixLength > common) out += '\n';
      for (; prefixLength > common; common++) {
        out += closeParagraph() + LIST_OPEN[prefix[common]!];
        if (prefix[common] === ';') dtOpen = true;
      }
      if (!prefixLength && lastPrefix) out += '\n';
      lastPrefix = prefix2;
    }
    if (prefixLength === 0) {
      const open = OPEN_MATCH.test(t);
      const close = CLOSE_MATCH.test(t);
      if (open || close) {
        pending = false;
        if (!inPre || preOpen) out += closeParagraph();
        if (preOpen && !preClose) inPre = true;
        inBlockElem = !close;
      } else if (!inBlockElem && !inPre) {
        if (t.startsWith(' ') && (lastParagraph === 'pre' || t.trim() !== '')) {
          if (lastParagraph !== 'pre') {
            pending = false;
            out += `${closeParagraph()}<pre>`;
            lastParagraph = 'pre';
          }
          t = t.slice(1);
        } else if (t.trim() === '') {
          if (pending) {
            out += `${pending}<br />`;
            pending = false;
            lastParagraph = 'p';
          } else if (lastParagraph !== 'p') {
            out += closeParagraph();
            pending = '<p>';
          } else pending = '</p><p>';
        } else if (pending) {
          out += pending;
          pending = false;
          lastParagraph = 'p';
        } else if (lastParagraph !== 'p') {
          out += `${closeParagraph()}<p>`;
          lastParagraph = 'p';
        }
      }
    }
    if (preClose && inPre) inPre = false;
    if (pending === false) {
      if (prefixLength === 0) out += t + (notLast || lastParagraph ? '\n' : '');
      else out += t.trim();
    }
  });
  for (let l = lastPrefix.length; l > 0; l--) {
    out += closeList(prefix2[l - 1] ?? lastPrefix[l - 1]!);
    if (l === 1 && lastParagraph) out += '\n';
  }
  return out + closeParagraph(true);
}
