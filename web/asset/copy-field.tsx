/**
 * A text to copy (a credit line, a command): shown in a read-only field, copied by its button with
 * the Clipboard API. Where that is refused (an insecure origin, a denied permission) the text is
 * selected instead, so the person's own copy shortcut takes it. Either way a live region says so.
 */
import { useEffect, useId, useRef, useState } from "preact/hooks";

const NOTICE_MS = 4000;

export function CopyField({ label, value, button, rows = 3 }: { label: string; value: string; button: string; rows?: number }) {
  const field = useRef<HTMLTextAreaElement>(null);
  const [notice, setNotice] = useState("");
  const id = useId();

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(""), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  // A changed text is not what was copied.
  useEffect(() => setNotice(""), [value]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setNotice("Copied");
    } catch {
      field.current?.focus();
      field.current?.select();
      setNotice("Selected: press Ctrl+C (⌘C on a Mac) to copy");
    }
  };

  return (
    <div class="copy-field">
      <label for={id}>{label}</label>
      <textarea id={id} ref={field} readOnly rows={rows} value={value} spellcheck={false} />
      <div class="copy-actions">
        <button type="button" class="button" onClick={copy}>
          {button}
        </button>
        <span role="status" class="copy-status">
          {notice}
        </span>
      </div>
    </div>
  );
}
