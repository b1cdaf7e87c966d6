import { z } from 'zod';

/** A language code: `de`, `pt-BR`, `zh-Hant` (a BCP 47 language with an optional region or script). */
export const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
export const LocaleCode = z.string().regex(LOCALE_PATTERN);

export const Language = z.object({
  locale: z.string(),
  name: z.string(),
  /** Keys with an up-to-date override (for English: every key, it is the source). */
  translated: z.number().int(),
  total: z.number().int(),
  /** The instance's default language (setting `locale`). */
  is_default: z.boolean(),
});
export type Language = z.infer<typeof Language>;

export const LanguageList = z.object({ data: z.array(Language) });
export type LanguageList = z.infer<typeof LanguageList>;

export const CreateLanguageBody = z.object({
  locale: LocaleCode,
  name: z.string().trim().min(1).max(60),
});
export type CreateLanguageBody = z.infer<typeof CreateLanguageBody>;

/** default: the shipped English; overridden: the admin's text; outdated: English changed since. */
export const TranslationStatus = z.enum(['default', 'overridden', 'outdated']);
export type TranslationStatus = z.infer<typeof TranslationStatus>;

export const TranslationString = z.object({
  key: z.string(),
  /** The shipped English text. */
  default: z.string(),
  /** What the language shows now. */
  value: z.string(),
  status: TranslationStatus,
});
export type TranslationString = z.infer<typeof TranslationString>;

export const TranslationStringList = z.object({ data: z.array(TranslationString) });
export type TranslationStringList = z.infer<typeof TranslationStringList>;

export const TranslationStringsQuery = z.object({
  search: z.string().max(200).optional(),
  status: TranslationStatus.optional(),
});

export const UpdateTranslationBody = z.object({
  key: z.string().min(1).max(200),
  value: z.string().max(5000),
});
export type UpdateTranslationBody = z.infer<typeof UpdateTranslationBody>;

/**
 * Every placeholder a text holds: `{{count}}` (i18next, a format such as `{{count, number}}` being
 * the same placeholder), `{name}` and `:var`, in order of appearance.
 */
export function placeholdersOf(text: string): string[] {
  const found: string[] = [];
  const rest = text.replace(/\{\{\s*(\w+)\s*(?:,[^{}]*)?\}\}/g, (_match, name: string) => {
    found.push(`{{${name}}}`);
    return ' ';
  });
  for (const match of rest.matchAll(/\{(\w+)\}|(?<![\w/:]):([A-Za-z_]\w*)/g))
    found.push(match[1] !== undefined ? `{${match[1]}}` : `:${match[2]}`);
  return found;
}

/** Placeholders of `text` that `reference` lacks (extra) and of `reference` that `text` lacks (missing). */
export function placeholderDifference(
  reference: string,
  text: string,
): { missing: string[]; extra: string[] } {
  const remaining = placeholdersOf(text);
  const missing: string[] = [];
  for (const placeholder of placeholdersOf(reference)) {
    const index = remaining.indexOf(placeholder);
    if (index === -1) missing.push(placeholder);
    else remaining.splice(index, 1);
  }
  return { missing, extra: remaining };
}
