import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';

/** A card of the profile page for one subject: its title, a line on what it is for, then its content. */
export function AccountSection({
  title,
  lead,
  children,
}: {
  title: string;
  lead: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="flex flex-col gap-6 p-6 sm:p-8">
      <div className="flex flex-col gap-1">
        <h2 className="font-display text-xl font-semibold">{title}</h2>
        <p className="text-sm text-muted">{lead}</p>
      </div>
      {children}
    </Card>
  );
}
