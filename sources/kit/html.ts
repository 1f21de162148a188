import * as cheerio from "cheerio";

/** The text of an HTML fragment, entities decoded and whitespace collapsed. */
export const htmlText = (html: string) => cheerio.load(`<div>${html}</div>`)("div").first().text().replace(/\s+/g, " ").trim();
