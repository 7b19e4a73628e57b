import { pageByTitle, type WikiModel } from './model.js';
import type { Title } from './title.js';

/**
 * ContentHandler's default model of a title (ContentHandler::getDefaultModelFor, the same on 1.39
 * and 1.43 without extensions): a `.css`, `.js` or `.json` page in the MediaWiki namespace, or a
 * user's subpage so named, is of that model; any other title is wikitext.
 */
function defaultContentModel(t: Pick<Title, 'ns' | 'dbkey'>): string {
  const ext = /\.(css|js|json)$/.exec(t.dbkey)?.[1];
  if (ext === undefined || !(t.ns === 8 || (t.ns === 2 && t.dbkey.includes('/')))) return 'wikitext';
  return ext === 'js' ? 'javascript' : ext;
}

/**
 * A title's content model as Title::getContentModel gives it: an existing page's own
 * (page_content_model: a fixture's or recording's `contentmodel`), else its title's default. A page
 * the model holds without its model has its title's default, the model every page is made with
 * unless changed (Special:ChangeContentModel); so a `.css` page in the MediaWiki namespace is never
 * taken for wikitext.
 */
export function contentModelOf(model: WikiModel, t: Pick<Title, 'ns' | 'dbkey' | 'prefixedText'>): string {
  return pageByTitle(model, t.ns, t.prefixedText)?.contentmodel ?? defaultContentModel(t);
}
