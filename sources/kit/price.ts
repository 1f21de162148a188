/** Prices as sites state them: an amount with its currency, or a price printed on a page. */
import type { Price } from "../../core/schemas/index.ts";
import { compact } from "./asset.ts";

const CURRENCIES: Record<string, string> = { $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY" };

/** An amount as a Price: 0 is free; any other amount (or none) is not, with the currency when known. */
export const priceFrom = (amount: number | undefined, currency?: string): Price => (amount === 0 ? { free: true } : compact({ free: false, amount, currency }));

/** "$1", "$9.99 USD", "From €9", "0€" → a Price, its currency by code or sign; undefined when the text holds no amount. */
export function parsePrice(text = ""): Price | undefined {
  const amount = /(\d+(?:[.,]\d{1,2})?)/.exec(text)?.[1];
  const currency = /\b([A-Z]{3})\b/.exec(text)?.[1] ?? Object.entries(CURRENCIES).find(([sign]) => text.includes(sign))?.[1];
  return amount === undefined ? undefined : priceFrom(Number(amount.replace(",", ".")), currency);
}
