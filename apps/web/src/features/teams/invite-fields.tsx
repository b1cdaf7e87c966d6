import { Email, type TeamInvitationInput, type TeamPermission } from '@atelier/contracts';
import { UserPlus } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { InputField, SELECT_CHEVRON, SelectField } from '../../components/ui/field';
import { useConfig, useSession } from '../session/session-queries';
import { countedAddresses, exceedsMemberLimit, isLimited, type MemberLimit } from './invite-rule';

export const PERMISSIONS: readonly TeamPermission[] = ['can_view', 'can_edit'];

/** A compact permission select for one person of a list; `label` names whose it is. */
export function PermissionSelect({
  value,
  onChange,
  label,
  disabled,
  className,
}: {
  value: TeamPermission;
  onChange: (permission: TeamPermission) => void;
  label: string;
  disabled?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <select
      value={value}
      onChange={(event) => onChange(event.target.value as TeamPermission)}
      aria-label={label}
      disabled={disabled}
      className={cn(
        'h-9 shrink-0 cursor-pointer appearance-none rounded-lg border border-line bg-surface bg-[length:14px] bg-[right_0.6rem_center] bg-no-repeat pr-8 pl-2.5 text-sm text-ink hover:border-muted/40 focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none disabled:cursor-not-allowed disabled:opacity-55',
        className,
      )}
      style={{ backgroundImage: SELECT_CHEVRON }}
    >
      {PERMISSIONS.map((permission) => (
        <option key={permission} value={permission}>
          {t(`teams.permission.${permission}`)}
        </option>
      ))}
    </select>
  );
}

/** The signed-in owner's member limit, counting `more` addresses besides the server's. */
export function useMemberLimit(more: readonly string[]): MemberLimit {
  const config = useConfig();
  const { resource } = useSession();
  return {
    subscriptionType: config.subscriptionType,
    total: resource?.meta.limitations.max_team_members.total ?? -1,
    counted: [...(resource?.meta.allowed_emails ?? []), ...more],
  };
}

/**
 * An e-mail address and a permission, checked before anything is sent: a real address, not the
 * owner's own, not one already in the team (`taken`), and within the member limit.
 */
export function InviteFields({
  taken,
  submitLabel,
  busy = false,
  serverError,
  onInvite,
}: {
  /** Addresses already members, invited or on the form's list. */
  taken: readonly string[];
  submitLabel: string;
  busy?: boolean;
  /** Why the server refused the last invite (the limit, usually). */
  serverError?: string;
  /** Resolves false when the invite did not go through, so the address stays to be fixed. */
  onInvite: (invitation: TeamInvitationInput) => Promise<boolean> | void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const limit = useMemberLimit(taken);
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState<TeamPermission>('can_view');
  const [problem, setProblem] = useState<string | null>(null);

  function check(address: string): string | null {
    if (!Email.safeParse(address).success) return t('validation.email');
    if (address === user?.attributes.email.toLowerCase()) return t('teams.invite_self');
    if (taken.some((entry) => entry.toLowerCase() === address))
      return t('teams.already_invited', { email: address });
    if (exceedsMemberLimit(limit, address)) return t('teams.member_limit', { limit: limit.total });
    return null;
  }

  async function invite() {
    const address = email.trim().toLowerCase();
    const refusal = check(address);
    setProblem(refusal);
    if (refusal || busy) return;
    if ((await onInvite({ email: address, permission })) === false) return;
    setEmail('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    // Inside a bigger form, Enter adds the address instead of sending the form.
    event.preventDefault();
    void invite();
  }

  const hint = isLimited(limit)
    ? t('teams.limit_hint', { used: countedAddresses(limit), total: limit.total })
    : t('teams.invite_hint');

  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_9.5rem_auto] sm:items-start">
      <InputField
        label={t('teams.invite_email')}
        type="email"
        inputMode="email"
        autoComplete="off"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setProblem(null);
        }}
        onKeyDown={onKeyDown}
        placeholder={t('sharing.email_placeholder')}
        error={problem ?? serverError}
        hint={hint}
      />
      <SelectField
        label={t('teams.permission_label')}
        value={permission}
        onChange={(event) => setPermission(event.target.value as TeamPermission)}
        options={PERMISSIONS.map((value) => ({ value, label: t(`teams.permission.${value}`) }))}
      />
      {/* Level with the fields under their labels. */}
      <Button type="button" variant="secondary" className="h-11 sm:mt-[26px]" loading={busy} onClick={invite}>
        {!busy && <UserPlus className="size-4" aria-hidden />}
        {submitLabel}
      </Button>
    </div>
  );
}
