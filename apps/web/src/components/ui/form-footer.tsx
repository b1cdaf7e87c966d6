import type { ReactNode } from 'react';

/** A two-column form's last row: the form's own error, if any, then its buttons, across both columns. */
export function FormFooter({ error, children }: { error: string | null; children: ReactNode }) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-danger sm:col-span-2">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2 sm:col-span-2">{children}</div>
    </>
  );
}
