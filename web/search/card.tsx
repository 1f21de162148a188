/**
 * One result: its thumbnail (through this server, sized so nothing moves as it loads), title,
 * type and source, price, licence, formats and the other sources listing it. The title is the
 * card's link, stretched over the whole card, so the link's name is the title alone; a plain
 * click opens the asset over the results, a click with a modifier key opens it as the browser would.
 */
import type { Ref } from "preact";
import type { Asset, Provider } from "../../core/schemas/index.ts";
import { licenceBadge, price, thumbnailSrc } from "../lib/format.ts";
import { followInApp } from "../lib/location.ts";
import { sourceName } from "../lib/providers.ts";
import { TYPE_NAMES } from "./labels.ts";

/** Formats named on a card; the rest are counted. */
const FORMATS_SHOWN = 4;
/** The thumbnail's size as asked of the server: the card shows it square. */
const THUMB = 320;

interface CardProps {
  asset: Asset;
  href: string;
  providers: Map<string, Provider>;
  linkRef?: Ref<HTMLAnchorElement> | undefined;
  /** Load the thumbnail at once (the first row), not when scrolled near. */
  eager?: boolean;
}

export function ResultCard({ asset, href, providers, linkRef, eager = false }: CardProps) {
  const badge = licenceBadge(asset.license);
  const cost = price(asset.price);
  const formats = asset.formats ?? [];
  const others = [...new Set((asset.alsoOn ?? []).map((o) => sourceName(providers, o.provider)))];
  return (
    <li class="card">
      <a class="card-title" href={href} onClick={followInApp} ref={linkRef}>
        {asset.title}
      </a>
      <img
        class="card-thumb"
        src={thumbnailSrc(asset, THUMB)}
        alt={asset.title}
        width={THUMB}
        height={THUMB}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
      />
      <p class="card-source">
        {TYPE_NAMES[asset.type].one} · <span class="source">{sourceName(providers, asset.provider)}</span>
      </p>
      <p class="card-facts">
        {cost && <span class="price">{cost}</span>}
        <span class={`badge ${badge.kind}`}>{badge.label}</span>
      </p>
      {formats.length > 0 && (
        <p class="card-formats">
          {formats
            .slice(0, FORMATS_SHOWN)
            .map((f) => f.toUpperCase())
            .join(" · ")}
          {formats.length > FORMATS_SHOWN && ` +${formats.length - FORMATS_SHOWN}`}
        </p>
      )}
      {others.length > 0 && <p class="card-also">also on {others.join(", ")}</p>}
    </li>
  );
}

/** A card's shape while results are on their way; hidden from assistive technology, which hears the live status instead. */
export function SkeletonCard() {
  return (
    <li class="card skeleton" aria-hidden="true">
      <span class="card-thumb" />
      <span class="line" />
      <span class="line short" />
    </li>
  );
}
