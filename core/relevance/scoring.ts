/**
 * Every tunable of the one scorer, for index hits and live results alike: text matching in
 * core/relevance/match.ts, the final order in core/relevance/ranking.ts. Tuned on the rules, never on one query.
 */
export const SCORING = {
  /** Field weights of text relevance: a word in the title says most about an asset. */
  fields: { title: 3, tags: 2, categories: 1.5, description: 0.5, author: 1 },
  /** BM25 within a field: k1 saturates repeated words, b normalises by the field's length against the index's average. */
  bm25: { k1: 1.2, b: 0.7 },
  /**
   * Weight of a match by how it was found. `exact` is the searcher's own word, its stem, or two of
   * its words written together; a synonym weighs less than the word itself.
   */
  kinds: { exact: 1, synonym: 0.6, prefix: 0.5, typo: 0.4 },
  /**
   * When results matching every word do not fill the page, results matching at least this share of
   * the required words (rounded down, at least one) follow them, ordered by the share they match.
   */
  minShouldMatch: 0.5,
  /** The last word also matches longer terms it starts (it may still be being typed), from this length on. */
  prefixMinLength: 3,
  /**
   * Typo tolerance, only when exact and stemmed matches do not fill the page: words of at least
   * `minLength` letters, within `maxEditShare` of their length in edits (rounded), at most
   * `maxEdits` (the look-up grows with the distance: a 300-letter word must not cost a search).
   */
  typo: { minLength: 5, maxEditShare: 0.2, maxEdits: 2 },
  /**
   * The score within a band of equally good matches (core/relevance/ranking.ts): these sum to 1, so it is in
   * 0..1. `sourceRank` is the position in the source's own list (one list for all indexed sources);
   * `type` rewards the requested types and those the query's type words name. Free and
   * downloadable only break ties: they are the same for nearly the whole index.
   */
  weights: { text: 0.7, sourceRank: 0.15, type: 0.15 },
  /**
   * One source cannot fill a page: each further result of a source is multiplied by `decay`, but a
   * result only moves up past results whose text relevance is at most `closeText` above its own.
   */
  diversity: { decay: 0.85, closeText: 0.1 },
  /**
   * The junk floor (core/relevance/ranking.ts answerTest): a result is not shown as an answer when it
   * holds fewer of the query's words than the best result (wordSharer: a required word counts by how
   * it matched, a type word when the text holds it or the asset is of its type) and either its text
   * relevance is below `text` (half) of the best's or it holds less than `share` of the query with
   * each word weighed by its IDF (querySharer). Weighed, "sky" alone holds about a third of "night
   * sky" and "game" alone of "game sprites": the common word of two is no answer. `share` sits above
   * a typo's weight (kinds.typo), so that strong text on a misspelt word ("grass" for "glass") is
   * none either, and below a half, so that one of two words about as rare ("logos" of "brand
   * logos") still is. Without the floor a page that few assets fill is padded with whatever matched
   * one minor word, only a type word, a prefix or a typo. A result that holds as many of the query's
   * words as the best is never dropped, however weak its text: when everything is weak alike,
   * nothing is. Index hits and live results pass the same floor, their matches coming from the same
   * rules and the index's statistics.
   */
  floor: { text: 0.5, share: 0.45 },
} as const;
