/**
 * The file picker: format, resolution and maps chosen from the asset's own files; the files the
 * server selects for them (`/files`), their sizes and the total; the download of exactly those
 * files; and the same request as a `curl` command and an MCP `get_asset` call.
 */
import { useEffect, useId, useState } from "preact/hooks";
import type { AssetDetails, AssetFile, FileSelection } from "../../core/schemas/index.ts";
import { ApiFailure, getJson } from "../lib/api.ts";
import { bytes, webUrl } from "../lib/format.ts";
import { type Choices, downloadPath, filesPath, formatsOf, mapsOf, nearestResolution, resolutionsOf } from "./choices.ts";
import { Commands } from "./commands.tsx";
import { mapName } from "./map-names.ts";

type Answer = { selection: FileSelection } | { failure: string };

/** What the controls show: the person's choices, else those of the server's default selection. */
function shownChoices(choices: Choices | undefined, selection: FileSelection | undefined): Choices {
  if (choices) return choices;
  const first = selection?.files[0];
  return { format: first?.format.toLowerCase(), resolution: selection?.files.find((f) => f.resolution)?.resolution?.toLowerCase() };
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const sizeOf = (n: number | undefined) => (n === undefined ? "size not stated" : bytes(n));

function failureText(err: unknown): string {
  if (err instanceof ApiFailure && err.status === 404) return "No file matches these choices: try another format or resolution.";
  if (err instanceof ApiFailure && err.status >= 500) return "The source site is not answering right now: try again in a moment.";
  return "The file list could not be loaded.";
}

/** Without direct downloads (the site needs a login or a purchase) the picker says so and sends people to the asset's page. */
export function FilePicker({ asset, sourceName, direct, level }: { asset: AssetDetails; sourceName: string; direct: boolean; level: number }) {
  const Heading = `h${level}` as "h3";
  if (direct) return <Picker asset={asset} level={level} />;
  const page = webUrl(asset.url);
  return (
    <section class="asset-section files">
      <Heading>Files</Heading>
      <p>{sourceName} offers no direct download of this asset: it needs a login or a purchase there.</p>
      {page && (
        <a class="button primary" href={page} rel="noopener">
          Get it on {sourceName}
        </a>
      )}
      <Commands id={asset.id} choices={{}} canDownload={false} />
    </section>
  );
}

function Picker({ asset, level }: { asset: AssetDetails; level: number }) {
  const [choices, setChoices] = useState<Choices | undefined>(undefined);
  const [answer, setAnswer] = useState<Answer | undefined>(undefined);
  const [busy, setBusy] = useState(true);
  const ids = useId();
  const Heading = `h${level}` as "h3";

  const path = filesPath(asset.id, choices ?? {});
  useEffect(() => {
    const abort = new AbortController();
    setBusy(true);
    getJson<FileSelection>(path, abort.signal).then(
      (selection) => {
        setAnswer({ selection });
        setBusy(false);
      },
      (err) => {
        if (abort.signal.aborted) return;
        setAnswer({ failure: failureText(err) });
        setBusy(false);
      },
    );
    return () => abort.abort();
  }, [path]);

  const selection = answer && "selection" in answer ? answer.selection : undefined;
  const shown = shownChoices(choices, selection);
  const formats = formatsOf(asset.files);
  const resolutions = resolutionsOf(asset.files, shown.format);
  const maps = mapsOf(asset.files, shown.format);
  const picked = new Set(shown.maps ?? selection?.files.flatMap((f) => (f.mapType ? [f.mapType] : [])) ?? []);

  const choose = (change: Choices) => setChoices({ ...shown, ...change });
  const chooseFormat = (format: string) =>
    choose({ format, resolution: nearestResolution(resolutionsOf(asset.files, format), shown.resolution), maps: undefined });
  const toggleMap = (role: string, on: boolean) => {
    const next = maps.filter((m) => (m === role ? on : picked.has(m)));
    if (next.length) choose({ maps: next });
  };

  const files = selection?.files ?? [];
  const companions = files.reduce((n, f) => n + (f.includes?.length ?? 0), 0);
  const single = files.length === 1 && !files[0]?.includes?.length;
  return (
    <section class="asset-section files" aria-labelledby={`${ids}-title`}>
      <Heading id={`${ids}-title`}>Files</Heading>
      <div class="picker">
        {formats.length > 1 && (
          <div class="control">
            <label for={`${ids}-format`}>Format</label>
            <select id={`${ids}-format`} value={shown.format} onChange={(e) => chooseFormat(e.currentTarget.value)}>
              {formats.map((f) => (
                <option key={f} value={f}>
                  {f.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
        )}
        {resolutions.length > 1 && (
          <div class="control">
            <label for={`${ids}-resolution`}>Resolution</label>
            <select id={`${ids}-resolution`} value={shown.resolution} onChange={(e) => choose({ resolution: e.currentTarget.value })}>
              {resolutions.map((r) => (
                <option key={r} value={r}>
                  {r.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
        )}
        {maps.length > 1 && (
          <fieldset class="control maps">
            <legend>Maps</legend>
            {maps.map((m) => (
              <label key={m} class="check">
                <input
                  type="checkbox"
                  checked={picked.has(m)}
                  // The last map stays: no maps at all would mean the server's default set.
                  disabled={picked.has(m) && picked.size === 1}
                  onChange={(e) => toggleMap(m, e.currentTarget.checked)}
                />
                <span>{mapName(m)}</span>
              </label>
            ))}
          </fieldset>
        )}
      </div>

      <div class="selection" aria-busy={busy}>
        {answer && "failure" in answer && <p class="problem">{answer.failure}</p>}
        {selection && <FileList files={files} />}
        <p class="total" role="status">
          {selection
            ? `${count(files.length, "file")}${companions ? ` and ${count(companions, "companion file")}` : ""} · total ${selection.totalBytes === undefined ? "size not stated by the source" : bytes(selection.totalBytes)}`
            : busy
              ? "Loading the file list…"
              : ""}
        </p>
      </div>

      <a class="button primary download" href={downloadPath(asset.id, shown)} aria-disabled={!selection || undefined}>
        {single ? `Download ${files[0]?.filename}` : "Download zip"}
        {selection?.totalBytes !== undefined && <span class="download-size"> ({bytes(selection.totalBytes)})</span>}
      </a>
      <Commands id={asset.id} choices={shown} canDownload />
    </section>
  );
}

function FileList({ files }: { files: readonly AssetFile[] }) {
  return (
    <ul class="file-list">
      {files.map((f) => (
        <li key={f.url}>
          <span class="file-name">{f.filename}</span>
          <span class="file-size">{sizeOf(f.sizeBytes)}</span>
          {f.includes?.length ? (
            <ul>
              {f.includes.map((i) => (
                <li key={i.path}>
                  <span class="file-name">{i.path}</span>
                  <span class="file-size">{sizeOf(i.sizeBytes)}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
