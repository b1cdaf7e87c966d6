import {
  CreateUploadRequestBody,
  ItemName,
  UPLOAD_REQUEST_DEFAULT_HOURS,
  UPLOAD_REQUEST_MAX_HOURS,
  UPLOAD_REQUEST_NOTES_MAX,
} from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { CircleCheck, FolderOpen, Mail } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { InputField, SelectField, TextareaField } from '../../components/ui/field';
import { Modal, ModalActions } from '../../components/ui/modal';
import { formatDateTime } from '../../lib/format-date';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { filesKeys } from '../files/files-api';
import { CopyLinkField } from '../sharing/copy-link';
import { ShareQrCode } from '../sharing/share-qr-code';
import { ownerRequestsApi, uploadRequestsKeys, type UploadRequest } from './upload-requests-api';

/** The lifetimes offered, in hours: an hour, a day, three days (the default), a week, thirty days. */
const LIFETIMES = [1, 24, UPLOAD_REQUEST_DEFAULT_HOURS, 168, UPLOAD_REQUEST_MAX_HOURS] as const;

function lifetimeLabel(hours: number, t: TFunction): string {
  return hours % 24 === 0
    ? t('sharing.expiry_days', { count: hours / 24 })
    : t('sharing.expiry_hours', { count: hours });
}

/** The folder a request fills: an existing one, or none for a new folder named after the request. */
export interface RequestFolder {
  id: string;
  name: string;
}

/**
 * Asks someone without an account for files: the request's settings, then its link with a copy
 * button and a QR code. With an e-mail address the server mails the link too.
 */
export function UploadRequestDialog({
  folder,
  onClose,
}: {
  folder: RequestFolder | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<UploadRequest | null>(null);
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={
        folder
          ? t('upload_requests.dialog_title_folder', { name: folder.name })
          : t('upload_requests.dialog_title')
      }
      description={
        created
          ? undefined
          : folder
            ? t('upload_requests.dialog_lead_folder')
            : t('upload_requests.dialog_lead_new')
      }
      className="max-w-xl"
      sheet
    >
      {created ? (
        <CreatedPanel request={created} onClose={onClose} />
      ) : (
        <RequestForm folder={folder} onCancel={onClose} onCreated={setCreated} />
      )}
    </Modal>
  );
}

function RequestForm({
  folder,
  onCancel,
  onCreated,
}: {
  folder: RequestFolder | null;
  onCancel: () => void;
  onCreated: (request: UploadRequest) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(folder?.name ?? '');
  const [notes, setNotes] = useState('');
  const [email, setEmail] = useState('');
  const [lifetime, setLifetime] = useState<number>(UPLOAD_REQUEST_DEFAULT_HOURS);

  const form = useApiForm(
    async () => {
      // A new folder is named after the request, so it needs a name; an existing folder lends its own.
      const schema = folder ? CreateUploadRequestBody : CreateUploadRequestBody.extend({ name: ItemName });
      const body = validateWith(schema, {
        folder_id: folder?.id ?? null,
        // Left empty for a folder, the server takes the folder's name; a new folder's is checked here.
        name: folder ? name.trim() || undefined : name,
        notes: notes.trim() || null,
        email: email.trim() || null,
        expires_in: lifetime,
      });
      return ownerRequestsApi.create(body);
    },
    (request) => {
      void queryClient.invalidateQueries({ queryKey: uploadRequestsKeys.owned });
      if (!folder) {
        void queryClient.invalidateQueries({ queryKey: filesKeys.listings });
        void queryClient.invalidateQueries({ queryKey: filesKeys.navigation });
      }
      onCreated(request);
    },
  );

  return (
    <form onSubmit={form.onSubmit} className="mt-5 flex flex-col gap-5" noValidate>
      <InputField
        label={t('upload_requests.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={255}
        required={!folder}
        placeholder={t('upload_requests.name_placeholder')}
        hint={folder ? t('upload_requests.name_hint_folder') : t('upload_requests.name_hint_new')}
        error={form.fieldErrors.name}
      />
      <TextareaField
        label={t('upload_requests.notes')}
        value={notes}
        onChange={(event) => setNotes(event.target.value)}
        maxLength={UPLOAD_REQUEST_NOTES_MAX}
        placeholder={t('upload_requests.notes_placeholder')}
        error={form.fieldErrors.notes}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField
          label={t('upload_requests.email')}
          type="email"
          inputMode="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder={t('sharing.email_placeholder')}
          hint={t('upload_requests.email_hint')}
          error={form.fieldErrors.email}
        />
        <SelectField
          label={t('upload_requests.lifetime')}
          value={String(lifetime)}
          onChange={(event) => setLifetime(Number(event.target.value))}
          options={LIFETIMES.map((hours) => ({ value: String(hours), label: lifetimeLabel(hours, t) }))}
          error={form.fieldErrors.expires_in}
        />
      </div>
      {form.formError && (
        <p role="alert" className="text-sm text-danger">
          {form.formError}
        </p>
      )}
      <ModalActions>
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" loading={form.submitting}>
          {t('upload_requests.create')}
        </Button>
      </ModalActions>
    </form>
  );
}

function CreatedPanel({ request, onClose }: { request: UploadRequest; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { attributes } = request;
  const folder = request.relationships.folder.data;
  return (
    <div className="mt-5 flex flex-col gap-6">
      <p className="flex items-start gap-2.5 rounded-xl bg-success-soft px-4 py-3 text-sm text-ink">
        <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
        <span>
          {t('upload_requests.created', { date: formatDateTime(attributes.expires_at, i18n.language) })}
        </span>
      </p>
      <div className="flex flex-col-reverse items-center gap-5 sm:flex-row sm:items-start">
        <div className="flex w-full min-w-0 flex-1 flex-col gap-3">
          <CopyLinkField link={attributes.link} />
          <p className="text-xs leading-relaxed text-muted">{t('upload_requests.link_hint')}</p>
          {attributes.email && (
            <p className="flex items-start gap-2 text-sm text-muted">
              <Mail className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden />
              <span className="min-w-0 [overflow-wrap:anywhere]">
                {t('upload_requests.emailed', { email: attributes.email })}
              </span>
            </p>
          )}
        </div>
        <ShareQrCode value={attributes.link} />
      </div>
      <ModalActions>
        <Button asChild variant="secondary">
          <Link to={`/platform/files/${folder.id}`} onClick={onClose}>
            <FolderOpen className="size-4" aria-hidden />
            {t('upload_requests.open_folder')}
          </Link>
        </Button>
        <Button onClick={onClose}>{t('sharing.done')}</Button>
      </ModalActions>
    </div>
  );
}
