/** What is known of an asset: its source and author, licence and what it allows, price, type, description, tags and other listings. */
import type { AssetDetails } from "../../core/schemas/index.ts";
import { licenceBadge, licenceFacts, price, webUrl } from "../lib/format.ts";
import { followInApp } from "../lib/location.ts";
import { sourceName, useProviders } from "../lib/providers.ts";

export function About({ asset }: { asset: AssetDetails }) {
  const providers = useProviders();
  const source = sourceName(providers, asset.provider);
  const page = webUrl(asset.url);
  const badge = licenceBadge(asset.license);
  const licenceUrl = webUrl(asset.license?.url);
  const others = (asset.alsoOn ?? []).filter((o) => webUrl(o.url));
  return (
    <div class="about">
      <dl class="facts">
        <div>
          <dt>Source</dt>
          <dd>
            {page ? (
              <a href={page} rel="noopener">
                {source}
              </a>
            ) : (
              source
            )}
          </dd>
        </div>
        {asset.author && (
          <div>
            <dt>Author</dt>
            <dd>{asset.author}</dd>
          </div>
        )}
        <div>
          <dt>Licence</dt>
          <dd>
            <span class={`badge ${badge.kind}`}>{badge.label}</span>{" "}
            {asset.license &&
              (licenceUrl ? (
                <a href={licenceUrl} rel="noopener">
                  {asset.license.name}
                </a>
              ) : (
                asset.license.name
              ))}
            <ul class="licence-facts">
              {licenceFacts(asset.license).map((fact) => (
                <li key={fact}>{fact}</li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>{price(asset.price) ?? "Not stated by the source"}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{asset.type}</dd>
        </div>
        {others.length > 0 && (
          <div>
            <dt>Also on</dt>
            <dd>
              <ul class="inline-list">
                {others.map((o) => (
                  <li key={o.id}>
                    <a href={webUrl(o.url)} rel="noopener">
                      {sourceName(providers, o.provider)}
                    </a>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
      {asset.description && <p class="description">{asset.description}</p>}
      {asset.tags.length > 0 && (
        <ul class="tags" aria-label="Tags">
          {asset.tags.map((tag) => (
            <li key={tag}>
              <a href={`/?${new URLSearchParams({ q: tag })}`} onClick={followInApp}>
                {tag}
              </a>
            </li>
          ))}
        </ul>
      )}
      {page && (
        <a class="button" href={page} rel="noopener">
          Open on {source}
        </a>
      )}
    </div>
  );
}
