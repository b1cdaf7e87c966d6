import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { InputField, TextareaField } from '../../components/ui/field';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../session/session-queries';
import { createProject, projectKeys } from './projects-api';

/** /projects/create — name a project; its folder is made and the upload screen opens. */
export function CreateProjectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { user } = useSession();
  const showError = useGenericError();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => createProject({ project_name: name, description, user_id: user!.id }),
    onSuccess: (project) => {
      void client.invalidateQueries({ queryKey: projectKeys.all });
      void navigate(`/projects/files/${project.id}`);
    },
    onError: (error) => {
      if (!(error instanceof ApiError && error.status === 422)) showError();
    },
  });
  const fieldError = (field: string) =>
    create.error instanceof ApiError ? create.error.fieldError(field) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('projects.area')}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
          {t('pages.project_create')}
        </h1>
        <p className="text-sm text-muted">{t('projects.create_lead')}</p>
      </header>
      <Card className="p-5 sm:p-7">
        <form onSubmit={submit} className="flex flex-col gap-5" noValidate>
          <InputField
            label={t('projects.field.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={fieldError('project_name')}
            placeholder={t('projects.field.name_placeholder')}
            autoFocus
            required
            maxLength={120}
          />
          <TextareaField
            label={t('projects.field.description')}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            error={fieldError('description')}
            placeholder={t('projects.field.description_placeholder')}
            maxLength={2000}
          />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => void navigate('/projects')}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              <Sparkles className="size-4" aria-hidden />
              {t('projects.create')}
            </Button>
          </div>
        </form>
      </Card>
    </section>
  );
}
