/** The page's header: the product's name (home), the site's navigation, the search box and a few example searches. */
import { useEffect, useState } from "preact/hooks";
import { followInApp, navigate } from "../lib/location.ts";
import { SiteNav } from "../lib/site-header.tsx";
import { withParams } from "./query.ts";

/** Searches that show what the sources hold: a model, a texture, an HDRI, a font. */
const EXAMPLES = ["arm chair", "brick wall", "sunset hdri", "pixel font"];

export function SearchHeader({ url, q }: { url: URL; q: string }) {
  const [text, setText] = useState(q);
  // Back, Forward and the example links change the words from outside the box.
  useEffect(() => setText(q), [q]);
  const submit = (event: Event) => {
    event.preventDefault();
    navigate(withParams(url, { q: text }));
  };
  return (
    <header class="top">
      <div class="top-inner">
        <h1 class="brand">
          <a href="/" onClick={followInApp}>
            asset-search
          </a>
        </h1>
        <SiteNav path={url.pathname} />
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is newer than Safari 16.4, which the bundle still serves */}
        <form class="search-form" role="search" action="/" onSubmit={submit}>
          <label class="visually-hidden" for="search-box">
            Search assets
          </label>
          <input
            id="search-box"
            type="search"
            name="q"
            value={text}
            onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
            placeholder="Models, textures, HDRIs…"
            autocomplete="off"
            enterKeyHint="search"
            maxLength={300}
          />
          <button class="button primary" type="submit">
            Search
          </button>
        </form>
        <p class="examples">
          <span>Try</span>
          {EXAMPLES.map((example) => (
            <a key={example} class="chip" href={`/?${new URLSearchParams({ q: example })}`} onClick={followInApp}>
              {example}
            </a>
          ))}
        </p>
      </div>
    </header>
  );
}
