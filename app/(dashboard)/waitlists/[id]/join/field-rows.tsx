import { inputClass, mutedText } from "@/components/styles";
import { EMPTY_FIELD_ROWS } from "@/lib/dashboard/join-settings-form";
import type { JoinField } from "@/lib/domain/joining/settings";

/** The join form's fields, one row each, and empty rows to add more (a row without a label is dropped when saved). */
export function FieldRows({ fields }: { fields: readonly JoinField[] }) {
  const rows: (JoinField | undefined)[] = [...fields, ...Array.from({ length: EMPTY_FIELD_ROWS }, () => undefined)];
  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-medium">Form fields</legend>
      <p className={`text-sm ${mutedText}`}>Besides the email address. Each answer is stored as the signup&rsquo;s custom input of that label. Clear a label to remove its field.</p>
      {rows.map((field, index) => (
        <div key={index} data-testid="field-row" className="grid gap-2 rounded-md border border-zinc-200 p-3 sm:grid-cols-[1fr_8rem] dark:border-zinc-800">
          <label className="grid gap-1 text-sm">
            Label of field {index + 1}
            <input name={`field_label_${index}`} defaultValue={field?.label ?? ""} maxLength={100} className={inputClass} />
          </label>
          <label className="grid gap-1 text-sm">
            Type of field {index + 1}
            <select name={`field_type_${index}`} defaultValue={field?.type ?? "text"} className={inputClass}>
              <option value="text">Free text</option>
              <option value="choice">Choice</option>
            </select>
          </label>
          <label className="grid gap-1 text-sm sm:col-span-2">
            Options of field {index + 1} (for a choice, comma-separated)
            <input name={`field_options_${index}`} defaultValue={field?.options?.join(", ") ?? ""} className={inputClass} />
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={`field_required_${index}`} value="true" defaultChecked={field?.required ?? false} />
            Field {index + 1} is required
          </label>
        </div>
      ))}
    </fieldset>
  );
}
