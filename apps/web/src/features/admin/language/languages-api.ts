import type {
  CreateLanguageBody,
  Language,
  LanguageList,
  TranslationStatus,
  TranslationString,
  TranslationStringList,
} from '@atelier/contracts';
import { api, apiRequest } from '../../../lib/api-client';

export const languageKeys = {
  all: ['admin', 'languages'] as const,
  strings: (locale: string) => ['admin', 'languages', locale, 'strings'] as const,
};

const base = '/api/admin/languages';
const one = (locale: string) => `${base}/${encodeURIComponent(locale)}`;

export const fetchLanguages = async () => (await api.get<LanguageList>(base)).data;

export const createLanguage = async (body: CreateLanguageBody) =>
  (await api.post<{ data: Language }>(base, body)).data;

export const removeLanguage = (locale: string) => apiRequest(one(locale), { method: 'DELETE' });

export const makeDefaultLanguage = (locale: string) => api.post(`${one(locale)}/default`);

/** Every string of a language; searching and filtering happen in the browser, over all ~1,300. */
export const fetchStrings = async (locale: string) =>
  (await api.get<TranslationStringList>(`${one(locale)}/strings`)).data;

export const saveString = async (locale: string, key: string, value: string) =>
  (
    await apiRequest<{ data: TranslationString }>(`${one(locale)}/strings`, {
      method: 'PATCH',
      body: { key, value },
    })
  ).data;

export const revertString = (locale: string, key: string) =>
  apiRequest(`${one(locale)}/strings/${encodeURIComponent(key)}`, { method: 'DELETE' });

export type { Language, TranslationStatus, TranslationString };
