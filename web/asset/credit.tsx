/**
 * "Copy credit": the asset's credit line in the form the person picks (plain text, HTML, Markdown),
 * ready to paste. The lines are the server's (`GET /v1/credits`, core/model/credits.ts), the same words
 * the command line's credits file and the MCP tool write for the asset.
 */
import { useEffect, useId, useState } from "preact/hooks";
import type { Asset, CreditedAsset, CreditsResponse } from "../../core/schemas/index.ts";
import { getJson } from "../lib/api.ts";
import { CopyField } from "./copy-field.tsx";

const FORMS = [
  { form: "line", label: "Plain text" },
  { form: "html", label: "HTML" },
  { form: "markdown", label: "Markdown" },
] as const satisfies readonly { form: keyof CreditedAsset; label: string }[];
type Form = (typeof FORMS)[number]["form"];

function useCredit(id: string): CreditedAsset | "failed" | undefined {
  const [credit, setCredit] = useState<CreditedAsset | "failed">();
  useEffect(() => {
    setCredit(undefined);
    const abort = new AbortController();
    getJson<CreditsResponse>(`/v1/credits?${new URLSearchParams({ ids: id, format: "json" })}`, abort.signal).then(
      (answer) => setCredit(answer.groups[0]?.assets[0] ?? "failed"),
      () => abort.signal.aborted || setCredit("failed"),
    );
    return () => abort.abort();
  }, [id]);
  return credit;
}

export function Credit({ asset, level }: { asset: Asset; level: number }) {
  const [form, setForm] = useState<Form>("line");
  const credit = useCredit(asset.id);
  const name = useId();
  const Heading = `h${level}` as "h3";
  const needed = asset.license?.attributionRequired;
  const label = FORMS.find((f) => f.form === form)?.label;
  return (
    <section class="asset-section credit" aria-labelledby={`${name}-title`}>
      <Heading id={`${name}-title`}>Credit</Heading>
      <p class="muted">
        {needed === true
          ? "The licence requires this credit wherever you use the asset."
          : needed === false
            ? "No credit is required, but it is welcome."
            : "Check the licence for whether credit is required."}
      </p>
      <fieldset class="segmented">
        <legend class="visually-hidden">Credit format</legend>
        {FORMS.map((f) => (
          <label key={f.form}>
            <input type="radio" name={name} value={f.form} checked={form === f.form} onChange={() => setForm(f.form)} />
            <span>{f.label}</span>
          </label>
        ))}
      </fieldset>
      {credit === "failed" ? (
        <p>The credit line could not be had right now: name the title, the author, the source page and the licence.</p>
      ) : (
        <CopyField label={`Credit line (${label})`} value={credit ? String(credit[form]) : "…"} button="Copy credit" rows={4} />
      )}
    </section>
  );
}
