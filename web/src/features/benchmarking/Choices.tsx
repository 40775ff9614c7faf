/** What a person picks from: an id and the words shown for it. */
import './benchmarking.css';
export interface Option {
  id: string;
  label: string;
}

/** One labelled drop-down of options. */
export function Choice({ label, value, options, onChange }: { label: string; value: string; options: Option[]; onChange: (id: string) => void }) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A group of toggles (checkboxes, or radios with a name) shown as pills. */
export function Pills({ legend, options, chosen, onToggle, type = 'checkbox', name }: { legend: string; options: Option[]; chosen: string[]; onToggle: (id: string) => void; type?: 'checkbox' | 'radio'; name?: string }) {
  return (
    <fieldset className="check-group">
      <legend>{legend}</legend>
      <div className="pills">
        {options.map((option) => (
          <label key={option.id} className={chosen.includes(option.id) ? 'pill checked' : 'pill'}>
            <input type={type} name={name} checked={chosen.includes(option.id)} onChange={() => onToggle(option.id)} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
