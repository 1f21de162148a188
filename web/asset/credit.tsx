/** "Copy credit": the asset's credit line in the form the person picks (plain text, HTML, Markdown), ready to paste. */
import { useId, useState } from "preact/hooks";
import type { Asset } from "../../core/schemas/index.ts";
import { CopyField } from "./copy-field.tsx";
import { CREDIT_FORMS, type CreditForm, type CreditSource, creditLine } from "./credit-text.ts";

export function Credit({ asset, source, level }: { asset: Asset; source: CreditSource; level: number }) {
  const [form, setForm] = useState<CreditForm>("text");
  const name = useId();
  const Heading = `h${level}` as "h3";
  const needed = asset.license?.attributionRequired;
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
        {CREDIT_FORMS.map((f) => (
          <label key={f.form}>
            <input type="radio" name={name} value={f.form} checked={form === f.form} onChange={() => setForm(f.form)} />
            <span>{f.label}</span>
          </label>
        ))}
      </fieldset>
      <CopyField
        label={`Credit line (${CREDIT_FORMS.find((f) => f.form === form)?.label})`}
        value={creditLine(asset, source, form)}
        button="Copy credit"
        rows={4}
      />
    </section>
  );
}
