/** The fields a 400 named (`body.rules.0.country` → "Rules 1 country: must match …"), in the form's own words where it gives them. */
export function fieldProblems(error: unknown, names: Readonly<Record<string, string>> = {}): string[] {
  const errors = (error as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    if (!entry || typeof entry !== 'object') return [];
    const { field, message } = entry as { field?: unknown; message?: unknown };
    if (typeof field !== 'string' || typeof message !== 'string') return [];
    const parts = field.replace(/^body\.?/, '').split('.').filter(Boolean);
    // Positions count from 1 for people.
    const named = parts.map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : (names[part] ?? part))).join(' ');
    return [`${named || 'The request'}: ${message}`];
  });
}

/** A form's failure: the server's message, then each field it named. */
export function FormProblem({ message, fields = [], className }: { message: string | null; fields?: string[]; className?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className={['form-problem', className].filter(Boolean).join(' ')}>
      <p>{message}</p>
      {fields.length > 0 && (
        <ul className="field-problems">
          {fields.map((field) => (
            <li key={field}>{field}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
