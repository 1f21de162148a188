/** The asset types as toggle chips above the results, each with its count; choosing several searches them all. */
import type { AssetType, Facets } from "../../core/schemas/index.ts";
import { listOptionCount } from "./facet-counts.ts";
import { Toggle } from "./filters.tsx";
import { TYPE_NAMES } from "./labels.ts";
import { listParam, toggleInList } from "./query.ts";

const TYPES = Object.keys(TYPE_NAMES) as AssetType[];

export function TypeChips({ url, facets }: { url: URL; facets: Facets | undefined }) {
  const chosen = listParam(url, "type");
  return (
    <fieldset class="type-chips">
      <legend class="visually-hidden">Asset type</legend>
      {TYPES.map((type) => (
        <Toggle
          key={type}
          label={TYPE_NAMES[type].many}
          pressed={chosen.includes(type)}
          href={toggleInList(url, "type", type)}
          count={listOptionCount(facets, "type", type, chosen)}
        />
      ))}
    </fieldset>
  );
}
