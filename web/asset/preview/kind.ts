/** What every kind of preview is given: the asset, the files of its preview selection, that selection's choices, and where to report its state. */
import type { AssetDetails, AssetFile } from "../../../core/schemas/index.ts";
import type { Choices } from "../choices.ts";

export type PreviewState = "loading" | "loaded" | "failed";

export interface KindProps {
  asset: AssetDetails;
  files: readonly AssetFile[];
  choices: Choices;
  onState: (state: PreviewState, message?: string) => void;
}
