/** How MediaWiki indexes an external link (LinkFilter): kept in the wiki layer, where cassettes' link ids are learned too. */
export * from '../wiki/link-index.js';
