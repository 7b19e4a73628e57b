/** Links' ids learned from continuation: in the cassette layer, where a database cassette's writer learns them too. */
export * from '../cassette/link-ids.js';
