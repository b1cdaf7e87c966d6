import {
  CreateShareBody,
  Email,
  SHARE_EXPIRY_HOURS,
  SHARE_EXPIRY_MAX_DAYS,
  SHARE_PASSWORD_MIN_LENGTH,
  UpdateShareBody,
  type ShareExpiry,
  type ShareProduct,
} from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Code, Download, Eye, Link2Off, PencilLine, Send, X } from 'lucide-react';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { InputField, SelectField } from '../../components/ui/field';
import { Modal, ModalActions } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { SwitchField } from '../../components/ui/switch';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/format-date';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import type { FileItem } from '../files/files-api';
import { CopyLinkField } from './copy-link';
import { applyItemShare, findItemShare, revokeShares } from './share-cache';
import { calendarDay, createBody, initialValues, updateBody, type ShareFormValues } from './share-form';
import { ShareQrCode } from './share-qr-code';
import { ShareState, expiryLabel } from './shared-badge';
import { itemShareOf, sharesApi, sharingKeys, type Share } from './sharing-api';
import { displayFileName } from '../../lib/file-name';

interface DialogProps {
  item: FileItem;
  onClose: () => void;
}

/**
 * The share dialog of an item: a new link's settings, then the link itself with a copy button, its
 * QR code, counters, e-mail sending, editing and revoking. One link per item.
 */
export function ShareDialog({ item, onClose }: DialogProps) {
  const { t } = useTranslation();
  const [token, setToken] = useState(item.relationships.shared.data?.token ?? null);
  const [editing, setEditing] = useState(false);
  const share = useQuery({
    queryKey: sharingKeys.owned(token ?? ''),
    queryFn: ({ signal }) => sharesApi.get(token ?? '', signal),
    enabled: token !== null,
  });
  // A link revoked elsewhere (another tab) is simply gone: the dialog offers a new one.
  const gone = share.error instanceof ApiError && share.error.status === 404;

  let body;
  if (token !== null && share.isPending) {
    body = (
      <div className="grid h-48 place-items-center text-muted">
        <Spinner label={t('sharing.loading')} />
      </div>
    );
  } else if (token !== null && share.isError && !gone) {
    body = (
      <div className="mt-5 flex flex-col items-start gap-3">
        <p role="alert" className="text-sm text-danger">
          {t('sharing.load_failed')}
        </p>
        <Button variant="secondary" onClick={() => void share.refetch()}>
          {t('sharing.retry')}
        </Button>
      </div>
    );
  } else if (!share.data || gone) {
    body = (
      <ShareSettingsForm
        item={item}
        onCancel={onClose}
        onSaved={(created) => setToken(created.attributes.token)}
      />
    );
  } else if (editing) {
    body = (
      <ShareSettingsForm
        item={item}
        share={share.data}
        onCancel={() => setEditing(false)}
        onSaved={() => setEditing(false)}
      />
    );
  } else {
    body = <LinkPanel item={item} share={share.data} onEdit={() => setEditing(true)} onClose={onClose} />;
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('sharing.dialog_title', { name: displayFileName(item.attributes.name) })}
      description={item.type === 'folder' ? t('sharing.dialog_lead_folder') : t('sharing.dialog_lead_file')}
      className="max-w-xl"
      sheet
    >
      {body}
    </Modal>
  );
}

const NEVER = 'never';
const ON_A_DAY = 'day';
const DAY_MS = 24 * 3_600_000;

function ShareSettingsForm({
  item,
  share,
  onCancel,
  onSaved,
}: {
  item: FileItem;
  /** The link being edited; none when the form makes a new one. */
  share?: Share;
  onCancel: () => void;
  onSaved: (share: Share) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<ShareFormValues>(() => initialValues(share?.attributes));
  const set = (patch: Partial<ShareFormValues>) => setValues((current) => ({ ...current, ...patch }));

  const form = useApiForm(
    async () => {
      if (!share)
        return sharesApi
          .create(validateWith(CreateShareBody, createBody(item, values)))
          .catch(async (error) => {
            // The item got its link elsewhere since it was listed: that link is the one to show. The
            // refusal names the item, in the person's language (not as a key): a fresh listing says.
            const taken = error instanceof ApiError && error.status === 422 && error.errors?.id !== undefined;
            const existing = taken ? await findItemShare(queryClient, item.id) : null;
            if (!existing) throw error;
            return existing;
          });
      const changes = validateWith(UpdateShareBody, updateBody(share.attributes, values));
      return Object.keys(changes).length === 0 ? share : sharesApi.update(share.attributes.token, changes);
    },
    (saved) => {
      queryClient.setQueryData(sharingKeys.owned(saved.attributes.token), saved);
      applyItemShare(queryClient, item.id, itemShareOf(saved));
      onSaved(saved);
    },
  );

  // The item the link is for has no field of its own: a refusal about it reads as the form's.
  const formError = form.formError ?? form.fieldErrors.id;
  const expiryOptions = [
    { value: NEVER, label: t('sharing.never') },
    ...SHARE_EXPIRY_HOURS.map((hours) => ({ value: String(hours), label: expiryLabel(hours, t) })),
    { value: ON_A_DAY, label: t('sharing.expiry_on_a_day') },
  ];
  const today = new Date();
  const expiryChoice =
    values.until !== null ? ON_A_DAY : values.expiration === null ? NEVER : String(values.expiration);
  const chooseExpiry = (choice: string) =>
    set(
      choice === ON_A_DAY
        ? { expiration: null, until: calendarDay(new Date(today.getTime() + 7 * DAY_MS)) }
        : { expiration: choice === NEVER ? null : (Number(choice) as ShareExpiry), until: null },
    );

  return (
    <form onSubmit={form.onSubmit} className="mt-5 flex flex-col gap-5" noValidate>
      {item.type === 'folder' ? (
        <ChoiceCards
          label={t('sharing.permission')}
          value={values.permission}
          onChange={(permission) => set({ permission })}
          choices={[
            {
              value: 'visitor',
              title: t('sharing.can_view'),
              description: t('sharing.can_view_hint'),
              icon: <Eye className="size-4" aria-hidden />,
            },
            {
              value: 'editor',
              title: t('sharing.can_edit'),
              description: t('sharing.can_edit_hint'),
              icon: <PencilLine className="size-4" aria-hidden />,
            },
          ]}
        />
      ) : (
        <p className="flex items-center gap-2 rounded-xl bg-surface-2 px-4 py-3 text-sm text-muted">
          <Eye className="size-4 shrink-0 text-accent" aria-hidden />
          {t('sharing.file_view_only')}
        </p>
      )}
      <div className="flex flex-col gap-3">
        <SwitchField
          label={t('sharing.protect')}
          description={t('sharing.protect_hint')}
          checked={values.isPassword}
          onCheckedChange={(isPassword) => set({ isPassword, password: '' })}
        />
        {values.isPassword && (
          <InputField
            label={t('sharing.password')}
            type="password"
            autoComplete="new-password"
            minLength={SHARE_PASSWORD_MIN_LENGTH}
            value={values.password}
            onChange={(event) => set({ password: event.target.value })}
            error={form.fieldErrors.password}
            hint={share?.attributes.protected ? t('sharing.password_keep_hint') : undefined}
          />
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t('sharing.expiry')}
          value={expiryChoice}
          onChange={(event) => chooseExpiry(event.target.value)}
          options={expiryOptions}
          error={form.fieldErrors.expiration}
        />
        {values.until !== null && (
          <InputField
            label={t('sharing.expiry_last_day')}
            type="date"
            min={calendarDay(today)}
            max={calendarDay(new Date(today.getTime() + SHARE_EXPIRY_MAX_DAYS * DAY_MS))}
            value={values.until}
            onChange={(event) => set({ until: event.target.value })}
            error={form.fieldErrors.expires_at}
          />
        )}
      </div>
      {formError && (
        <p role="alert" className="text-sm text-danger">
          {formError}
        </p>
      )}
      <ModalActions>
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" loading={form.submitting}>
          {share ? t('sharing.save') : t('sharing.create_link')}
        </Button>
      </ModalActions>
    </form>
  );
}

function LinkPanel({
  item,
  share,
  onEdit,
  onClose,
}: {
  item: FileItem;
  share: Share;
  onEdit: () => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const { attributes } = share;
  const expiresAt = attributes.expires_at ? formatDateTime(attributes.expires_at, i18n.language) : null;

  async function revoke() {
    setRevoking(true);
    try {
      await revokeShares(queryClient, [attributes.token]);
      pushToast('success', t('sharing.revoked', { count: 1 }));
      onClose();
    } catch {
      setRevoking(false);
      showGenericError();
    }
  }

  return (
    <div className="mt-5 flex flex-col gap-6">
      <div className="flex flex-col-reverse items-center gap-5 sm:flex-row sm:items-start">
        <div className="flex w-full min-w-0 flex-1 flex-col gap-3">
          <CopyLinkField link={attributes.link} />
          <ShareState share={itemShareOf(share)} className="flex-wrap" />
          <p className="text-xs text-muted">
            {expiresAt ? t('sharing.expires_on', { date: expiresAt }) : t('sharing.never_expires')}
          </p>
          <dl className="grid grid-cols-2 gap-2">
            <Counter icon={Eye} label={t('sharing.views')} value={attributes.views} />
            <Counter icon={Download} label={t('sharing.downloads')} value={attributes.downloads} />
          </dl>
        </div>
        <ShareQrCode value={attributes.link} />
      </div>

      {attributes.product && (
        <ProductLinks product={attributes.product} protectedLink={attributes.protected} />
      )}

      <EmailForm token={attributes.token} />

      {confirmingRevoke ? (
        <ModalActions className="sm:flex-col">
          <div
            role="alertdialog"
            aria-labelledby={`revoke-${attributes.token}`}
            className="flex flex-col gap-3 rounded-2xl border border-danger/30 bg-danger-soft p-4"
          >
            <p id={`revoke-${attributes.token}`} className="text-sm font-semibold text-ink">
              {t('sharing.confirm_revoke.title', { count: 1 })}
            </p>
            <p className="text-sm text-muted">
              {t('sharing.confirm_revoke.message', { count: 1, name: displayFileName(item.attributes.name) })}
            </p>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={() => setConfirmingRevoke(false)}>
                {t('actions.cancel')}
              </Button>
              <Button variant="danger" loading={revoking} onClick={() => void revoke()}>
                <Link2Off className="size-4" aria-hidden />
                {t('sharing.revoke')}
              </Button>
            </div>
          </div>
        </ModalActions>
      ) : (
        <ModalActions className="sm:items-center">
          <Button
            variant="ghost"
            className="text-danger sm:mr-auto"
            onClick={() => setConfirmingRevoke(true)}
          >
            <Link2Off className="size-4" aria-hidden />
            {t('sharing.revoke')}
          </Button>
          <Button variant="secondary" onClick={onEdit}>
            <PencilLine className="size-4" aria-hidden />
            {t('sharing.edit_settings')}
          </Button>
          <Button onClick={onClose}>{t('sharing.done')}</Button>
        </ModalActions>
      )}
    </div>
  );
}

/**
 * A project's link is also its product page: its address, and the two codes that embed it in a shop
 * page, under the link's rules (a protected link's embed sends visitors to the page for its password).
 */
function ProductLinks({ product, protectedLink }: { product: ShareProduct; protectedLink: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4 border-t border-line pt-5">
      <CopyLinkField link={product.link} label={t('product.page_link')} />
      <div className="flex flex-col gap-1">
        <h3 id={id} className="flex items-center gap-2 text-sm font-semibold text-ink">
          <Code className="size-4 text-accent" aria-hidden />
          {t('product.embed')}
        </h3>
        <p className="text-xs leading-relaxed text-muted">
          {t(protectedLink ? 'product.embed_lead_protected' : 'product.embed_lead')}
        </p>
      </div>
      <CopyLinkField link={product.iframe} label={t('product.embed_iframe')} code />
      <CopyLinkField link={product.script} label={t('product.embed_script')} code />
    </section>
  );
}

function Counter({ icon: Icon, label, value }: { icon: typeof Eye; label: string; value: number }) {
  const { i18n } = useTranslation();
  return (
    <div className="flex items-center gap-3 rounded-xl border border-line px-3 py-2.5">
      <Icon className="size-4 text-muted" aria-hidden />
      <div className="flex flex-col">
        <dt className="text-xs text-muted">{label}</dt>
        <dd className="font-display text-lg leading-tight font-semibold tabular-nums">
          {value.toLocaleString(i18n.language)}
        </dd>
      </div>
    </div>
  );
}

/** Splits what was typed at commas, semicolons and spaces. */
function addressesIn(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

function EmailForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const [addresses, setAddresses] = useState<string[]>([]);
  const [draft, setDraft] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();

  /** Moves what was typed into the list; returns the list, or null when an address is not one. */
  function commit(): string[] | null {
    const typed = addressesIn(draft);
    const wrong = typed.find((address) => !Email.safeParse(address).success);
    if (wrong) {
      setInvalid(wrong);
      return null;
    }
    const next = [...new Set([...addresses, ...typed.map((address) => address.toLowerCase())])];
    setAddresses(next);
    setDraft('');
    setInvalid(null);
    return next;
  }

  const send = useApiForm(
    async () => {
      const emails = commit();
      if (!emails) throw new ApiError(422, 'validation.email');
      if (emails.length === 0) throw new ApiError(422, 'validation.required');
      await sharesApi.email(token, emails);
      return emails.length;
    },
    (count) => {
      setAddresses([]);
      pushToast('success', t('sharing.email_sent', { count }));
    },
  );

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Backspace' && draft === '' && addresses.length > 0) {
      setAddresses(addresses.slice(0, -1));
    }
  }

  const error = invalid
    ? t('sharing.email_invalid', { address: invalid })
    : (send.fieldErrors.emails ?? send.formError ?? undefined);

  return (
    <form
      onSubmit={(event: FormEvent) => void send.onSubmit(event)}
      className="flex flex-col gap-1.5 border-t border-line pt-5"
      noValidate
    >
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {t('sharing.send_by_email')}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div
            className={cn(
              'flex min-h-11 min-w-0 flex-1 flex-wrap items-center gap-1.5 rounded-xl border border-line bg-surface px-2 py-1.5 focus-within:border-accent focus-within:ring-3 focus-within:ring-accent/15',
              error && 'border-danger',
            )}
          >
            {addresses.map((address) => (
              <span
                key={address}
                className="inline-flex h-7 max-w-full items-center gap-1 rounded-lg bg-surface-2 pr-1 pl-2.5 text-sm text-ink"
              >
                <span className="truncate">{address}</span>
                <button
                  type="button"
                  onClick={() => setAddresses(addresses.filter((entry) => entry !== address))}
                  className="grid size-5 cursor-pointer place-items-center rounded-md text-muted hover:bg-surface hover:text-ink"
                  aria-label={t('sharing.remove_address', { address })}
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </span>
            ))}
            <input
              id={id}
              type="text"
              inputMode="email"
              autoComplete="email"
              value={draft}
              onChange={(event) => {
                setDraft(event.target.value);
                setInvalid(null);
              }}
              onKeyDown={onKeyDown}
              onBlur={() => draft && commit()}
              placeholder={addresses.length === 0 ? t('sharing.email_placeholder') : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-hint`}
              className="h-8 min-w-40 flex-1 bg-transparent px-1.5 text-sm text-ink outline-none placeholder:text-muted/70"
            />
          </div>
          <p
            id={`${id}-hint`}
            role={error ? 'alert' : undefined}
            className={cn('text-xs', error ? 'text-danger' : 'text-muted')}
          >
            {error ?? t('sharing.email_hint')}
          </p>
        </div>
        <Button type="submit" variant="secondary" className="h-11" loading={send.submitting}>
          <Send className="size-4" aria-hidden />
          {t('sharing.send')}
        </Button>
      </div>
    </form>
  );
}
