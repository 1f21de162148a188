import { expect } from "vitest";
import { carries, FILTER_KEYS, type FilterKey } from "../../core/model/filters.ts";
import type { Asset } from "../../core/schemas/index.ts";

/**
 * A source's `filtering.listed` says exactly what its listings carry: every listed key is carried by at least one
 * of `assets`, and every other filter key by none, except the keys in `mayCarry` (an exception the test documents).
 * A failure names the key.
 */
export function expectListedExactly(assets: readonly Asset[], listed: readonly FilterKey[], options: { mayCarry?: readonly FilterKey[] } = {}): void {
  const mayCarry = options.mayCarry ?? [];
  for (const key of listed)
    expect(
      assets.some((a) => carries(a, key)),
      key,
    ).toBe(true);
  for (const key of FILTER_KEYS.filter((k) => !listed.includes(k) && !mayCarry.includes(k)))
    expect(
      assets.some((a) => carries(a, key)),
      key,
    ).toBe(false);
}
